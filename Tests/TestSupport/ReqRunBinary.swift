import Foundation

/// Runs the built `reqrun` executable, as a user would.
public enum ReqRunBinary {
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        /// Standard output as the bytes written (`stdout` is them decoded as UTF-8, with replacements).
        public var stdoutData = Data()
    }

    /// The executable: `$REQRUN_BINARY`, else `reqrun` beside the test bundle (SwiftPM builds both into
    /// the same folder).
    public static var url: URL {
        if let path = ProcessInfo.processInfo.environment["REQRUN_BINARY"] { return URL(fileURLWithPath: path) }
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return testBinary.deletingLastPathComponent().appendingPathComponent("reqrun")
    }

    /// Runs `reqrun arguments…` in `directory` with `NO_COLOR=1` and waits for it.
    public static func run(_ arguments: [String], in directory: URL, environment extra: [String: String] = [:]) throws -> Output {
        let process = try start(arguments, in: directory, environment: extra)
        return process.finish()
    }

    /// Runs `reqrun arguments…` as `run` does, killed (SIGKILL) if it has not ended within `seconds`: for a
    /// command that must not block (on a FIFO, say); the test then fails on the status of the killed process.
    public static func run(_ arguments: [String], in directory: URL, killedAfter seconds: Double) throws -> Output {
        let running = try start(arguments, in: directory)
        let killer = DispatchWorkItem { running.send(signal: SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: killer)
        defer { killer.cancel() }
        return running.finish()
    }

    /// A started process whose output is collected on background threads (so a full pipe never blocks it).
    public final class Running: @unchecked Sendable {
        let process: Process
        let stdoutPipe = Pipe()
        let stderrPipe = Pipe()
        var stdoutData = Data()
        var stderrData = Data()
        let group = DispatchGroup()

        init(process: Process) { self.process = process }

        /// Sends `signal` (e.g. SIGINT) to the process.
        public func send(signal number: Int32) { kill(process.processIdentifier, number) }

        public func finish() -> Output {
            group.wait()
            process.waitUntilExit()
            return Output(status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
                          stderr: String(decoding: stderrData, as: UTF8.self), stdoutData: stdoutData)
        }
    }

    public static func start(_ arguments: [String], in directory: URL, environment extra: [String: String] = [:]) throws -> Running {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        // Tests talk only to local servers: a proxy in the outer environment must not divert them (a test
        // that wants one passes it in `extra`).
        for name in ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"] {
            environment[name] = nil
        }
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let running = Running(process: process)
        process.standardOutput = running.stdoutPipe
        process.standardError = running.stderrPipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        running.group.enter()
        running.group.enter()
        DispatchQueue.global().async {
            running.stdoutData = running.stdoutPipe.fileHandleForReading.readDataToEndOfFile()
            running.group.leave()
        }
        DispatchQueue.global().async {
            running.stderrData = running.stderrPipe.fileHandleForReading.readDataToEndOfFile()
            running.group.leave()
        }
        return running
    }
}
