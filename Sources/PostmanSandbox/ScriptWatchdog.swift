import Foundation
import ReqRunKit

/// Bounds each call into JavaScript by time and by memory, from JavaScriptCore's time-limit callback.
///
/// JavaScriptCore's C API has no memory limit to set (its `JSC_gcMaxHeapSize`-like options only steer the
/// collector), so the engine asks for its time-limit callback every `slice` seconds
/// (`JSContextGroupSetExecutionTimeLimit`, whose callback may return false to go on, after which the limit
/// starts again) and this watchdog decides there: stop when the call has run `timeLimit` seconds, or when
/// the process's resident set (`/proc/self/statm`, proc(5)) has grown by more than `memoryLimit` bytes since
/// the first check of the call, one slice in (read then rather than at every call: most calls end sooner,
/// and reading it at each of a request's calls cost about 40 µs). JSC then throws its uncatchable termination exception and the context stays usable.
/// Checks run where JSC polls its traps (loop back edges, function entries): one built-in call that
/// allocates a lot at once (`new Array(1e9).fill(0)`) is seen only when it returns.
final class ScriptWatchdog {
    /// `interrupted`: Ctrl-C or SIGTERM arrived during the call (`Interruption`), or the UI's Esc.
    enum Reason { case time, memory, interrupted }

    /// How often the callback comes, in seconds.
    static let slice = 0.01
    /// `--script-timeout` in seconds (0: none).
    let timeLimit: Double
    /// The most the resident set may grow during one call, in bytes (0: none).
    let memoryLimit: Int
    private var started = ContinuousClock.now
    private var residentAtStart: Int?
    /// Why the last call was stopped, until `take()`.
    private(set) var reason: Reason?

    init(timeLimit: Double, memoryLimit: Int) {
        self.timeLimit = timeLimit
        self.memoryLimit = memoryLimit
    }

    /// Before each call into JavaScript.
    func arm() {
        reason = nil
        started = .now
        residentAtStart = nil
    }

    /// From the time-limit callback: whether to stop the script now.
    func shouldStop() -> Bool {
        // The run stops at a signal: a script need not use the rest of its time limit first.
        if Interruption.requested {
            reason = .interrupted
            return true
        }
        if timeLimit > 0, ContinuousClock.now - started >= .milliseconds(Int(timeLimit * 1000)) {
            reason = .time
            return true
        }
        if memoryLimit > 0 {
            let resident = Self.residentBytes()
            guard let base = residentAtStart else {
                residentAtStart = resident
                return false
            }
            if resident - base > memoryLimit {
                reason = .memory
                return true
            }
        }
        return false
    }

    /// Why the last call stopped, and forgets it.
    func take() -> Reason? {
        defer { reason = nil }
        return reason
    }

    /// The process's resident set in bytes (`/proc/self/statm`'s second field × the page size); 0 when unknown.
    static func residentBytes() -> Int {
        let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return 0 }
        let fields = buffer[..<count].split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
