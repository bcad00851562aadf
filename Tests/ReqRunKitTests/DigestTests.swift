import Foundation
import Testing
@testable import ReqRunKit

/// SHA-1 computed in Swift (FIPS 180-4 §6.1), checked against the standard's examples and OpenSSL's.
@Suite struct DigestTests {
    @Test func sha1MatchesTheStandardsExamples() {
        #expect(Digest.hex(Digest.sha1(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(Digest.hex(Digest.sha1([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(Digest.hex(Digest.sha1(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(Digest.hex(Digest.sha1(Array(repeating: UInt8(ascii: "a"), count: 1_000_000))) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    /// Every padding case (a message of 55, 56 and 64 bytes ends where the length does or does not fit).
    @Test func sha1AgreesWithOpenSSLAcrossBlockBoundaries() throws {
        for count in [1, 55, 56, 57, 63, 64, 65, 119, 120, 128] {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("reqrun-sha1-\(UUID().uuidString)")
            try Data(bytes).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            process.arguments = ["dgst", "-sha1", "-r", file.path]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(output.hasPrefix(Digest.hex(Digest.sha1(bytes)) + " "), "\(count) bytes")
        }
    }

    /// The name-based UUID of RFC 9562's example (Appendix A.4: "www.example.com" in the DNS namespace).
    @Test func nameBasedUUIDOfTheRFCsExample() {
        let dns = UUID(uuidString: "6ba7b810-9dad-11d1-80b4-00c04fd430c8")!
        #expect(GroupID.nameBasedUUID(namespace: dns, name: "www.example.com").uuidString.lowercased() == "2ed6657d-e927-568b-95e1-2665a8aea6a2")
    }
}
