import Foundation

/// reqrun's exit codes (also in the README and `reqrun --help`).
public enum ExitCode: Int32 {
    /// Every request passed: a response arrived and met its expectations and captures (skips do not count).
    case success = 0
    /// An expectation or capture failed (every request got a response).
    case expectationFailed = 1
    /// Bad input: a collection, environment, state file or run record that cannot be read, an unknown group.
    case badInput = 2
    /// A request could not be sent (undefined variable…) or got no response (connection refused, timeout…);
    /// this wins over `expectationFailed` when both happen.
    case requestError = 3
    /// A wrong command line (`EX_USAGE` from sysexits.h).
    case usage = 64
    /// A file reqrun must write could not be written (`EX_IOERR`).
    case ioError = 74
    /// The run was interrupted with Ctrl-C (128 + SIGINT, as shells report it); its record was written.
    case interrupted = 130
    /// The run was stopped by SIGTERM (128 + 15), e.g. a cancelled CI job; its record was written.
    case terminated = 143

    /// The codes and their meanings as `helpText` lists them (continuation lines joined), for the man page
    /// and the CLI reference.
    static var documented: [(code: String, meaning: String)] {
        var result: [(code: String, meaning: String)] = []
        for line in helpText.split(separator: "\n").dropFirst() {
            let text = line.trimmingCharacters(in: .whitespaces)
            if let first = text.split(separator: " ").first, first.allSatisfy(\.isNumber) {
                result.append((String(first), text.dropFirst(first.count).trimmingCharacters(in: .whitespaces)))
            } else if !result.isEmpty {
                result[result.count - 1].meaning += " " + text
            }
        }
        return result
    }

    static let helpText = """
        EXIT CODES:
          0   success: every request got a response that met its expectations (skips do not count)
          1   an expectation or capture failed
          2   bad input: a collection, environment or run record that cannot be read, an unknown group or run,
              a run that selects nothing (without --allow-empty)
          3   a request could not be sent or got no response (wins over 1)
          64  usage: a wrong command line
          74  a file could not be written (state or run record)
          130 interrupted by Ctrl-C (the run record is still written)
          143 stopped by SIGTERM, e.g. a cancelled CI job (the run record is still written)
        """
}
