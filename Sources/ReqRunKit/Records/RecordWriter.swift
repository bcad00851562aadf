import Foundation

/// A run record of format 2 written as the run goes: `.reqrun/runs/<id>.jsonl`, JSON Lines (one compact JSON
/// text per line, RFC 8259, each ending in a line feed): a header line, one line per result in list order,
/// and a summary line at the end (fields in docs/reports.md, "Run records"). What a run keeps in memory no
/// longer grows with its results: each is written once it and every result before it are done.
///
/// The file is created mode 0600 in the run folder opened without following links (`PrivateDirectory`), and
/// written with `write(2)` from a 64 KiB buffer that goes out whenever the run has nothing else to do
/// (`flush`), so a run stopped by SIGTERM or Ctrl-C, which still finishes, and even one killed, leaves a
/// record whose lines up to the last flush read back (`RecordReader`: without a summary line the counts are
/// those of the results present).
///
/// Secrets: each result is masked before it is written with the secrets known when it finished. A secret
/// learned later in the run (a token captured by one request and sent as a credential by a later one) is
/// masked at the end in the results written without it: `finish` rewrites the file (atomically, `AtomicFile`)
/// when, and only when, such a secret exists, decoding and masking again only the lines up to the last
/// one written without it, and copying the rest as it is. Until then the file on disk holds what the
/// console showed.
public final class RecordWriter: @unchecked Sendable {
    /// The run's id, and the file (`<id>.jsonl` in `store`'s folder).
    public let id: String
    public let file: URL
    private let folder: PrivateDirectory
    private let name: String
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    /// Results written so far, and their counts.
    public private(set) var count = 0
    public private(set) var summary = RunSummary([])
    /// Every secret value some result was masked with, and for each the last result (by line, from 0)
    /// that was masked without it (-1: none).
    private var lastWithout: [String: Int] = [:]
    /// For each captured variable, the last result that captured a value: its name and the value as recorded.
    public private(set) var captureOrigins: [String: (request: String, value: String)] = [:]
    /// The first write that failed; later writes are not tried.
    public private(set) var failure: FileError?

    /// Bytes kept before they are written.
    static let bufferSize = 65_536

    /// Creates the file and writes its header line (`RunRecord`'s fields but `results`, `summary`,
    /// `endedAt` and `libcurlVersion`).
    /// - Throws: `FileError` when the folder or the file cannot be made or written, or one is a link.
    public init(store: RunStore, header: RunRecord) throws(FileError) {
        guard let folder = try PrivateDirectory.open(store.directory, ownComponents: 2, create: true) else {
            throw FileError(path: store.directory.path, operation: "create the folder", errno: ENOENT)
        }
        id = header.id
        name = RunStore.fileName(header.id, format: 2)
        file = store.directory.appendingPathComponent(name)
        self.folder = folder
        descriptor = try folder.openForUpdate(name)
        ftruncate(descriptor, 0)
        buffer.reserveCapacity(Self.bufferSize)
        buffer += RecordLines.header(header)
        flush()
        if let failure { close(descriptor); throw failure }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Appends a masked result, `encoded` its line (`RecordLines.result`), masked with `secrets`.
    func append(_ result: RequestResult, encoded: [UInt8], maskedWith secrets: Set<String>) {
        for value in secrets where lastWithout[value] == nil { lastWithout[value] = count - 1 }
        if lastWithout.count > secrets.count {
            for value in lastWithout.keys where !secrets.contains(value) { lastWithout[value] = count }
        }
        for capture in result.captures { if let value = capture.value { captureOrigins[capture.variable] = (result.name, value) } }
        summary.add(result)
        count += 1
        buffer += encoded
        if buffer.count >= Self.bufferSize { flush() }
    }

    /// Writes what is buffered (`write(2)`; not `fsync`: records are a log, as `RunStore` says).
    public func flush() {
        guard !buffer.isEmpty, failure == nil else { return }
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                failure = FileError(path: file.path, operation: "write", errno: errno)
                break
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Masks again the results written without one of `lateSecrets`, then writes the summary line and closes
    /// the file.
    /// - Parameter showSecrets: `--show-secrets`: nothing is masked again.
    /// - Returns: the file.
    /// - Throws: `FileError` when a write failed, now or during the run.
    @discardableResult
    public func finish(endedAt: String, libcurlVersion: String, lateSecrets: [String], showSecrets: Bool) throws(FileError) -> URL {
        let summaryLine = RecordLines.summary(summary, endedAt: endedAt, libcurlVersion: libcurlVersion)
        // Secrets never used: every line went out without them.
        let last = showSecrets ? -1 : lateSecrets.map { lastWithout[$0] ?? count - 1 }.max() ?? -1
        if last < 0 {
            buffer += summaryLine
            flush()
        } else {
            flush()
            if failure == nil { rewrite(upTo: last, lateSecrets: lateSecrets, summaryLine: summaryLine) }
        }
        close(descriptor)
        descriptor = -1
        if let failure { throw failure }
        return file
    }

    /// Closes and removes the file (a record that must not be kept: `reqrun merge` that failed half-way).
    func discard() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        folder.remove(name)
    }

    /// Writes the record again with lines 0…`last` of the results masked with `lateSecrets` too.
    private func rewrite(upTo last: Int, lateSecrets: [String], summaryLine: [UInt8]) {
        // A new secret that holds one masked already is now spelled with the mask inside it.
        let earlier = SecretMasker(values: Array(lastWithout.keys))
        let masker = SecretMasker(values: lateSecrets + lateSecrets.map { earlier.mask($0) })
        for (variable, origin) in captureOrigins { captureOrigins[variable]?.value = masker.mask(origin.value) }
        do {
            try folder.write(name, mode: 0o600, durable: false) { output in
                var line = -1  // the header is line -1
                do {
                    try LineReader(descriptor: descriptor, from: 0).lines { bytes, _ in
                        defer { line += 1 }
                        if line >= 0, line <= last, let result = try? RequestResult(recordJSON: bytes) {
                            let again = masker.mask(result)
                            if again != result {
                                RecordLines.result(again).withUnsafeBytes { output.write($0) }
                                return true
                            }
                        }
                        (bytes + [0x0A]).withUnsafeBytes { output.write($0) }
                        return true
                    }
                } catch {
                    output.fail(EIO)
                }
                summaryLine.withUnsafeBytes { output.write($0) }
            }
        } catch {
            failure = error
        }
    }
}

extension RunSummary {
    /// Counts one more result, as `init(_:)` counts them.
    public mutating func add(_ result: RequestResult) {
        total += 1
        switch result.outcome {
        case .response:
            responded += 1
            if result.passed { passed += 1 } else { failed += 1 }
        case .skipped: skipped += 1
        case .notRun: notRun += 1
        case .transportError, .invalid, .scriptError: errors += 1
        }
    }
}
