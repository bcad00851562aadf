import Foundation

/// Peak resident memory of a `reqrun` process, as GNU time reports it.
public enum PeakMemory {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Peak resident memory in KiB of `reqrun ARGUMENTS` run in `directory` (`/usr/bin/time -v`'s `Maximum
    /// resident set size`), its output thrown away.
    /// - Throws: `Failure` with the end of standard error when reqrun exits with a status other than 0.
    public static func kibibytes(_ arguments: [String], in directory: URL) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-v", ReqRunBinary.url.path] + arguments
        process.currentDirectoryURL = directory
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(description: "reqrun \(arguments) exited with \(process.terminationStatus): \(text.suffix(500))") }
        guard let line = text.split(separator: "\n").first(where: { $0.contains("Maximum resident set size") }),
              let value = Int(line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) else {
            throw Failure(description: "no peak memory in GNU time's output: \(text.suffix(500))")
        }
        return value
    }
}
