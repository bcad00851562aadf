import Foundation

/// Runs a Python script with `python3` (used to read reports with real consumers: junitparser, haralyzer).
public enum Python {
    /// Runs `script` with `arguments`; returns stdout. A failing script records its stderr in the error.
    public static func run(_ script: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(message: String(decoding: stderr, as: UTF8.self))
        }
        return String(decoding: stdout, as: UTF8.self)
    }

    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { "python3 failed: \(message)" }
    }
}
