import Foundation

/// Reads a file's lines (split at line feeds, which are not passed on) from a descriptor with `pread(2)`
/// through a 64 KiB buffer: memory stays that of the longest line, whatever the file's size.
struct LineReader {
    let descriptor: Int32
    /// Where the next read starts, in bytes.
    private var position: Int
    private var chunk = [UInt8](repeating: 0, count: 65_536)
    private var start = 0
    private var filled = 0
    private var atEnd = false

    /// The longest line read: 256 MiB (a result line holds at most two 64 KiB bodies, base64 or escaped, and
    /// a WebSocket conversation's messages).
    static let lineLimit = 256 << 20

    init(descriptor: Int32, from offset: Int) {
        self.descriptor = descriptor
        position = offset
    }

    /// Where the next line starts, in bytes.
    var offset: Int { position - (filled - start) }

    enum Failure: Error { case tooLong, unreadable(Int32) }

    /// The next line and the offset just past it (its line feed), nil at the end of the file (a last line
    /// without a line feed is returned too).
    /// - Throws: `Failure` when a line is longer than `lineLimit` or the file cannot be read.
    mutating func next() throws(Failure) -> (line: [UInt8], end: Int)? {
        var pending: [UInt8] = []
        while true {
            // memchr(3): `firstIndex(of:)` looked at one byte at a time (5 % of `show`, callgrind).
            let found = chunk.withUnsafeBufferPointer { b -> Int? in
                memchr(b.baseAddress! + start, 0x0A, filled - start).map { UnsafeRawPointer(b.baseAddress!).distance(to: UnsafeRawPointer($0)) }
            }
            if let feed = found {
                let line = pending.isEmpty ? Array(chunk[start..<feed]) : pending + chunk[start..<feed]
                start = feed + 1
                return (line, position - (filled - start))
            }
            pending += chunk[start..<filled]
            guard pending.count <= Self.lineLimit else { throw .tooLong }
            start = 0
            filled = 0
            if atEnd { return pending.isEmpty ? nil : (pending, position) }
            let n = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(position)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable(errno)
            }
            if n == 0 { atEnd = true; continue }
            filled = n
            position += n
        }
    }

    /// Calls `body` with each line and the offset just past it, until it returns false or the file ends.
    /// - Throws: what `body` throws; `Failure` as `next`.
    func lines(_ body: (_ line: [UInt8], _ end: Int) throws -> Bool) throws {
        var reader = self
        while let (line, end) = try reader.next() {
            guard try body(line, end) else { return }
        }
    }
}
