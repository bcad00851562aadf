import Foundation

/// The most bytes a loader reads from one file, checked before the file is read whole (its size from
/// `fstat`; a pipe, whose size says nothing, is read up to the bound and refused past it). A collection or
/// an environment from someone else, or a file named by mistake (a disk image, `/dev/zero`), must not
/// exhaust memory before a clear error. The bounds are far above what real files of each kind need.
public struct FileSizeBound: Sendable, Equatable {
    /// The largest accepted size, in bytes.
    public let bytes: Int
    /// What the file is, for messages: `a collection`.
    public let kind: String

    public init(bytes: Int, kind: String) {
        self.bytes = bytes
        self.kind = kind
    }

    /// Collections (`collections/*.json`, `--collection`, `import`): 256 MiB.
    public static let collection = FileSizeBound(bytes: 256 << 20, kind: "a collection")
    /// Environments (`environments/*.json`, `--env FILE`): 16 MiB.
    public static let environment = FileSizeBound(bytes: 16 << 20, kind: "an environment")
    /// `--cookie-jar FILE`, which libcurl loads: 16 MiB.
    public static let cookieJar = FileSizeBound(bytes: 16 << 20, kind: "a cookie jar")
    /// `.reqrun/state.json`: 16 MiB (the expanded set of 100,000 groups takes about 4 MB).
    public static let state = FileSizeBound(bytes: 16 << 20, kind: "the state file")
    /// A run record read by `show`, `diff` and `history`: 1 GiB (a record keeps at most 64 KiB of each body).
    public static let runRecord = FileSizeBound(bytes: 1 << 30, kind: "a run record")

    /// Why a file of `size` bytes is refused, or nil when it is within the bound.
    public func refusal(size: Int) -> String? {
        guard size > bytes else { return nil }
        return "is \(Self.describe(size)) (\(size) bytes), more than \(kind) may have (\(Self.describe(bytes)))"
    }

    /// Why the file at `path` is refused by its size, or nil (also when it cannot be examined: the read
    /// that follows says why).
    public func refusal(path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return refusal(size: Int(info.st_size))
    }

    /// `256 MiB`, `1.5 GiB`, `300 bytes`.
    static func describe(_ size: Int) -> String {
        for (unit, shift) in [("GiB", 30), ("MiB", 20), ("KiB", 10)] where size >= 1 << shift {
            let value = Double(size) / Double(1 << shift)
            return (value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)) + " " + unit
        }
        return "\(size) bytes"
    }
}
