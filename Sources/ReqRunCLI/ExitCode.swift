/// reqrun's exit codes (also in the README and `reqrun --help`).
public enum ExitCode: Int32 {
    /// Everything ran; every request that was sent got a response.
    case success = 0
    /// A request failed: not sent (undefined variable…) or no response (connection refused, timeout…).
    case requestFailed = 1
    /// Bad input: a collection, state file or run record that cannot be read, an unknown group.
    case badInput = 2
    /// A wrong command line (`EX_USAGE` from sysexits.h).
    case usage = 64
    /// A file reqrun must write could not be written (`EX_IOERR`).
    case ioError = 74

    static let helpText = """
        EXIT CODES:
          0   success: every request sent got a response (skipped requests do not count)
          1   a request failed: it could not be sent or got no response
          2   bad input: a collection, saved state or record that cannot be read, an unknown group
          64  usage: a wrong command line
          74  a file could not be written (state or run record)
        """
}
