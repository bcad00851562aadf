import Foundation

/// Runs the `curl` command-line tool: an independent client for checks the executor cannot make yet (TLS with
/// a custom CA or a client certificate, a proxy).
public enum CurlTool {
    public struct Output: Sendable {
        /// curl's exit status (0 = the transfer worked; 60 = the peer's certificate was not trusted; …).
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `curl --silent --show-error ARGUMENTS`, with no proxy taken from the environment (a test that wants
    /// one says so with `--proxy`), and returns its exit status and output.
    public static func run(_ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl", "--silent", "--show-error"] + arguments
        var environment = ProcessInfo.processInfo.environment
        for name in ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"] {
            environment[name] = nil
        }
        process.environment = environment
        // stderr goes to a file, so a long one cannot block curl while stdout is read.
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("reqrun-curl-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let errorHandle = try FileHandle(forWritingTo: errorFile)
        defer { try? errorHandle.close() }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = errorHandle
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = FileManager.default.contents(atPath: errorFile.path) ?? Data()
        return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}
