import Foundation

/// The local servers the tests talk to. `make test` starts them on 127.0.0.1 and passes their addresses
/// in the environment; a test that needs one fails with this message when it is missing (never skips).
public enum TestServers {
    public struct Missing: Error, CustomStringConvertible {
        public var variable: String
        public var description: String {
            "\(variable) is not set: the tests need a local httpbin. Run them with 'make test', which installs and "
                + "starts it, or start one (gunicorn -b 127.0.0.1:PORT httpbin:app) and export \(variable)=http://127.0.0.1:PORT"
        }
    }

    /// Base URL of a local httpbin, e.g. `http://127.0.0.1:38080` (no trailing slash).
    public static func httpbin() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["REQRUN_TEST_HTTPBIN"], !url.isEmpty else {
            throw Missing(variable: "REQRUN_TEST_HTTPBIN")
        }
        return url.hasSuffix("/") ? String(url.dropLast()) : url
    }

    /// A TCP port on 127.0.0.1 with nothing listening: bound to port 0 (the kernel picks a free one), then closed.
    public static func closedPort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        precondition(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                precondition(bind(fd, socketAddress, length) == 0)
                precondition(getsockname(fd, socketAddress, &length) == 0)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
