/// A fixed-size buffer of trivial values allocated once (64-byte aligned, zeroed unless asked
/// not to be) and freed on deinit: the working memory of the segmentation stages, sized when the
/// frame size changes.
package final class ScratchBuffer<Element: BitwiseCopyable> {
    package let count: Int
    package let pointer: UnsafeMutablePointer<Element>

    /// `zeroed: false` for a buffer whose every element is written before it is read: a large one
    /// (its own mapping) then costs no resident memory until it is used.
    package init(count: Int, zeroed: Bool = true) {
        self.count = max(count, 1)
        let raw = UnsafeMutableRawPointer.allocate(byteCount: self.count * MemoryLayout<Element>.stride, alignment: 64)
        if zeroed { raw.initializeMemory(as: UInt8.self, repeating: 0, count: self.count * MemoryLayout<Element>.stride) }
        pointer = raw.bindMemory(to: Element.self, capacity: self.count)
    }

    deinit { UnsafeMutableRawPointer(pointer).deallocate() }

    package var byteCount: Int { count * MemoryLayout<Element>.stride }

    @inline(__always) package subscript(i: Int) -> Element {
        get { pointer[i] }
        set { pointer[i] = newValue }
    }
}
