import ImageCore

extension Array where Element == ImageBuffer {
    /// Lends the views of every buffer, in order, to `body` (`ImageBuffer.withImage` nested, so
    /// each buffer stays alive until `body` returns); the views must not escape it.
    func withImages<Result, Failure: Error>(_ body: ([Image]) throws(Failure) -> Result) throws(Failure) -> Result {
        var views: [Image] = []
        views.reserveCapacity(count)
        func lend(_ i: Int) throws(Failure) -> Result {
            if i == count { return try body(views) }
            return try self[i].withImage { (image: Image) throws(Failure) -> Result in
                views.append(image)
                return try lend(i + 1)
            }
        }
        return try lend(0)
    }
}
