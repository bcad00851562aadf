import Foundation
import Testing
import ReqRunKit
import TestSupport

/// Encrypted client keys (`--ssl-client-passphrase`, `--ssl-client-passphrase-file`) and certificates per URL
/// (`--ssl-client-cert-list`, Newman's), through the built binary against nginx's TLS server (which reports the
/// client certificate it got) and its mutual-TLS server (which requires one of a second CA). The encrypted key
/// and the PKCS#12 file are made here from the test client's key with the openssl CLI.
@Suite struct ClientCertificateEndToEndTests {
    private let passphrase = "s3cret-passphrase-\(UUID().uuidString.prefix(6))"

    /// A workspace with one collection of GET requests to `urls`.
    private func workspace(_ urls: [String]) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        let requests = urls.map { #"{"url": "\#($0)"}"# }.joined(separator: ",")
        try dir.write("collections/t.json", #"{"name": "T", "groups": [{"name": "g", "requests": [\#(requests)]}]}"#)
        return dir
    }

    private func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "openssl \(arguments)")
    }

    /// The test client's key encrypted with `passphrase` (AES-256, PKCS#8), at `path`.
    private func encryptedKey(_ path: String) throws {
        try openssl(["pkey", "-in", try TestServers.clientKey(), "-aes256", "-passout", "pass:\(passphrase)", "-out", path])
    }

    @Test func encryptedKeyIsUsedWithItsPassphrase() throws {
        let dir = try workspace([try TestServers.nginxHTTPS() + "/client-cert"])
        try encryptedKey(dir.path + "/enc.key")
        let tls = ["--cacert", try TestServers.testCA(), "--cert", try TestServers.clientCertificate(), "--key", "enc.key"]
        let output = try ReqRunBinary.run(["run", "--all"] + tls + ["--ssl-client-passphrase", passphrase], in: dir.url)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(try RecordFiles.newest(in: dir.url).results[0].response?.body.data == "SUCCESS CN=reqrun-test-client")
        // Off the command line: the first line of a file, its line end dropped.
        try dir.write("pass.txt", passphrase + "\r\nignored\n")
        let fromFile = try ReqRunBinary.run(["run", "--all"] + tls + ["--ssl-client-passphrase-file", "pass.txt"], in: dir.url)
        #expect(fromFile.status == 0, "\(fromFile.stdout)\(fromFile.stderr)")
        #expect(try RecordFiles.newest(in: dir.url).results[0].response?.body.data == "SUCCESS CN=reqrun-test-client")
    }

    @Test func wrongOrMissingPassphraseIsAClearErrorForTheRequest() throws {
        let dir = try workspace([try TestServers.nginxHTTPS() + "/client-cert"])
        try encryptedKey(dir.path + "/enc.key")
        let tls = ["--cacert", try TestServers.testCA(), "--cert", try TestServers.clientCertificate(), "--key", "enc.key"]
        let wrong = try ReqRunBinary.run(["run", "--all"] + tls + ["--ssl-client-passphrase", "not-it"], in: dir.url)
        #expect(wrong.status == 3)
        let error = try #require(try RecordFiles.newest(in: dir.url).results[0].error)
        #expect(error.curlCode == 58)
        #expect(error.message.hasPrefix("the client certificate (--cert, --key) could not be loaded: "), "\(error.message)")
        #expect(error.message.contains("the passphrase may be wrong"), "\(error.message)")
        // Without one, OpenSSL is not left to ask on the terminal: the key fails to load, saying what is missing.
        let missing = try ReqRunBinary.run(["run", "--all"] + tls, in: dir.url)
        #expect(missing.status == 3)
        #expect(try RecordFiles.newest(in: dir.url).results[0].error?.message.contains("no passphrase was given (--ssl-client-passphrase)") == true)
    }

    @Test func passphraseIsASecretInTheConsoleAndTheRecord() throws {
        // A request that carries the passphrase (written into its URL), which nginx echoes back.
        let dir = try workspace([try TestServers.nginxHTTPS() + "/echo-uri?p=\(passphrase)"])
        try encryptedKey(dir.path + "/enc.key")
        let output = try ReqRunBinary.run(["run", "--all", "-v", "--cacert", try TestServers.testCA(), "--cert", try TestServers.clientCertificate(),
                                           "--key", "enc.key", "--ssl-client-passphrase", passphrase], in: dir.url)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(!output.stdout.contains(passphrase) && !output.stderr.contains(passphrase))
        let result = try RecordFiles.newest(in: dir.url).results[0]
        #expect(result.response?.body.data == "/echo-uri?p=****")
        let runs = dir.url.appendingPathComponent(".reqrun/runs")
        for name in try FileManager.default.contentsOfDirectory(atPath: runs.path) {
            #expect(!(try String(contentsOf: runs.appendingPathComponent(name), encoding: .utf8)).contains(passphrase), "\(name)")
        }
    }

    @Test func passphraseIsASecretInADryRun() throws {
        let dir = try workspace([try TestServers.nginxHTTPS() + "/echo-uri?p=\(passphrase)"])
        let output = try ReqRunBinary.run(["run", "--all", "--dry-run", "--key", "k.key", "--ssl-client-passphrase", passphrase], in: dir.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("/echo-uri?p=****") && !output.stdout.contains(passphrase), "\(output.stdout)")
    }

    @Test func passphraseOptionsAreCheckedBeforeAnythingIsSent() throws {
        let dir = try workspace([try TestServers.nginxHTTPS() + "/client-cert"])
        try dir.write("pass.txt", "x\n")
        let both = try ReqRunBinary.run(["run", "--all", "--key", "k", "--ssl-client-passphrase", "x", "--ssl-client-passphrase-file", "pass.txt"], in: dir.url)
        #expect(both.status == 64 && both.stderr.contains("give only one of --ssl-client-passphrase and --ssl-client-passphrase-file"), "\(both.stderr)")
        let alone = try ReqRunBinary.run(["run", "--all", "--ssl-client-passphrase", "x"], in: dir.url)
        #expect(alone.status == 64 && alone.stderr.contains("--ssl-client-passphrase is the passphrase of --key"), "\(alone.stderr)")
        try dir.write("empty.txt", "\n")
        let empty = try ReqRunBinary.run(["run", "--all", "--key", "k", "--ssl-client-passphrase-file", "empty.txt"], in: dir.url)
        #expect(empty.status == 2 && empty.stderr.contains("error: empty.txt: the first line, which holds the passphrase, is empty"), "\(empty.stderr)")
        #expect(!dir.exists(".reqrun/runs"))
    }

    @Test func certificateListPicksTheCertificateForEachServer() throws {
        let https = try TestServers.nginxHTTPS(), mutual = try TestServers.nginxMutualTLS()
        let dir = try workspace([mutual + "/client-cert", https + "/client-cert", https.replacingOccurrences(of: "localhost", with: "127.0.0.1") + "/client-cert"])
        // The list and its files in certs/: `src` paths are relative to the list's folder, not the current one.
        try FileManager.default.createDirectory(atPath: dir.path + "/certs", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try TestServers.clientCertificate2(), toPath: dir.path + "/certs/two.pem")
        try FileManager.default.copyItem(atPath: try TestServers.clientKey2(), toPath: dir.path + "/certs/two.key")
        try openssl(["pkcs12", "-export", "-in", try TestServers.clientCertificate(), "-inkey", try TestServers.clientKey(),
                     "-passout", "pass:\(passphrase)", "-out", dir.path + "/certs/one.p12"])
        let mutualPort = mutual.split(separator: ":").last!, httpsPort = https.split(separator: ":").last!
        try dir.write("certs/list.json", """
            [
              {"name": "second CA", "matches": ["https://localhost:\(mutualPort)/*"], "cert": {"src": "two.pem"}, "key": {"src": "two.key"}},
              {"name": "pfx", "matches": ["https://*.nowhere.example/*", "https://localhost:\(httpsPort)/client-*"],
               "pfx": {"src": "one.p12"}, "passphrase": "\(passphrase)"}
            ]
            """)
        let ca = try TestServers.testCA()
        let output = try ReqRunBinary.run(["run", "--all", "--cacert", ca, "--ssl-client-cert-list", "certs/list.json"], in: dir.url)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let bodies = try RecordFiles.newest(in: dir.url).results.map { $0.response?.body.data }
        // 127.0.0.1 matches no entry and there is no --cert: no certificate.
        #expect(bodies == ["SUCCESS CN=reqrun-test-client-2", "SUCCESS CN=reqrun-test-client", "NONE "])
        #expect(!output.stdout.contains(passphrase))

        // --cert/--key are the fallback for a URL no entry matches; the list wins where one does (the mutual-TLS
        // server would refuse the first CA's certificate with a 400).
        let fallback = try ReqRunBinary.run(["run", "--all", "--cacert", ca, "--ssl-client-cert-list", "certs/list.json",
                                             "--cert", try TestServers.clientCertificate(), "--key", try TestServers.clientKey()], in: dir.url)
        #expect(fallback.status == 0, "\(fallback.stdout)\(fallback.stderr)")
        #expect(try RecordFiles.newest(in: dir.url).results.map { $0.response?.body.data }
                == ["SUCCESS CN=reqrun-test-client-2", "SUCCESS CN=reqrun-test-client", "SUCCESS CN=reqrun-test-client"])
    }

    @Test func aConnectionMadeWithACertificateIsNotReusedWithoutIt() throws {
        // Patterns match paths too: one server, the certificate for /client-cert only. libcurl compares client
        // certificates before reusing a connection, so the request between goes without one (and gets 400).
        let mutual = try TestServers.nginxMutualTLS()
        let dir = try workspace([mutual + "/client-cert", mutual + "/echo-uri?between", mutual + "/client-cert"])
        try dir.write("list.json", #"[{"matches": ["\#(mutual)/client-cert"], "cert": "\#(try TestServers.clientCertificate2())", "key": "\#(try TestServers.clientKey2())"}]"#)
        let certificates = (try TestServers.clientCertificate2() as NSString).deletingLastPathComponent
        let output = try ReqRunBinary.run(["run", "--all", "--cacert", try TestServers.testCA(), "--ssl-client-cert-list", "list.json",
                                           "--file-root", certificates], in: dir.url)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(try RecordFiles.newest(in: dir.url).results.map { $0.response?.status } == [200, 400, 200])
    }

    @Test func wrongPassphraseOfAListEntryNamesTheEntry() throws {
        let https = try TestServers.nginxHTTPS()
        let dir = try workspace([https + "/client-cert"])
        try openssl(["pkcs12", "-export", "-in", try TestServers.clientCertificate(), "-inkey", try TestServers.clientKey(),
                     "-passout", "pass:\(passphrase)", "-out", dir.path + "/one.p12"])
        try dir.write("list.json", #"[{"name": "partner", "matches": ["https://*:*/*"], "pfx": {"src": "one.p12"}, "passphrase": "not-the-passphrase"}]"#)
        let output = try ReqRunBinary.run(["send", "#0", "--cacert", try TestServers.testCA(), "--ssl-client-cert-list", "list.json"], in: dir.url)
        #expect(output.status == 3, "\(output.stderr)")
        let error = try #require(try RecordFiles.newest(in: dir.url).results[0].error)
        #expect(error.message.hasPrefix("the client certificate 'partner' of --ssl-client-cert-list could not be loaded: "), "\(error.message)")
        #expect(error.message.contains("the passphrase may be wrong"))
    }

    @Test func badCertificateListIsAnErrorAtItsPlace() throws {
        let dir = try workspace([try TestServers.nginxHTTPS() + "/client-cert"])
        let outside = try TemporaryDirectory()
        try outside.write("x.pem", "")
        let cases: [(String, String)] = [
            (#"[{"matches": ["localhost:8443"], "cert": "c.pem"}]"#,
             "error: list.json:1:15: [0].matches[0]: 'localhost:8443' is not a URL match pattern"),
            (#"[{"matches": ["https://h/*", "https://ci@h/*"], "cert": "c.pem"}]"#,
             "error: list.json:1:30: [0].matches[1]: 'https://ci@h/*' has user information (user@): a URL match pattern names the host alone"),
            (#"[{"matches": ["https://h/*"], "cert": {"src": "\#(outside.path)/x.pem"}}]"#,
             "error: list.json:1:47: [0].cert.src: '\(outside.path)/x.pem' is outside the workspace"),
            (#"[{"matches": ["https://h/*"], "cert": "missing.pem"}]"#, "error: list.json:1:39: [0].cert: no such file: "),
            ("[{\"matches\": [\"https://h/*\"],\n \"crt\": \"c.pem\"}]", "error: list.json:2:2: [0].crt: unknown field 'crt' (did you mean 'cert'?)"),
            (#"{"matches": []}"#, "error: list.json:1:1: expected an array of client certificates, found an object"),
            (#"[{"matches": ["https://h/*"], "pfx": "list.json", "key": "list.json"}]"#,
             "error: list.json:1:58: [0].key: 'pfx' holds the certificate and its key: give either 'pfx' or 'cert' and 'key'"),
            (#"[{"matches": ["https://h/*"], "key": "list.json"}]"#, "error: list.json:1:38: [0].key: a 'key' needs its 'cert'"),
            (#"[{"name": "x", "cert": "list.json"}]"#, "error: list.json:1:2: [0].matches: expected an array of URL match patterns"),
        ]
        for (list, expected) in cases {
            try dir.write("list.json", list)
            let output = try ReqRunBinary.run(["run", "--all", "--ssl-client-cert-list", "list.json"], in: dir.url)
            #expect(output.status == 2 && output.stderr.hasPrefix(expected), "\(output.stderr)")
        }
        #expect(!dir.exists(".reqrun/runs"))
    }
}
