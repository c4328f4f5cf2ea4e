/// The last `capacity` entries of something that happens for the life of the service (photos,
/// messages, camera events), and how many there were in all: the memory it takes stays fixed.
public struct RecentHistory<Element> {
    public let capacity: Int
    /// Entries ever appended, including those that fell out.
    public private(set) var total: UInt64 = 0
    private var storage: [Element] = []
    private var head = 0

    public init(capacity: Int) {
        precondition(capacity > 0, "a history keeps at least one entry")
        self.capacity = capacity
        storage.reserveCapacity(capacity)
    }

    public mutating func append(_ element: Element) {
        total &+= 1
        if storage.count < capacity {
            storage.append(element)
        } else {
            storage[head] = element
            head = (head + 1) % capacity
        }
    }

    /// The kept entries, oldest first.
    public var elements: [Element] { Array(storage[head...] + storage[..<head]) }

    public var last: Element? { storage.isEmpty ? nil : storage[(head + storage.count - 1) % storage.count] }
}

extension RecentHistory: Sendable where Element: Sendable {}
