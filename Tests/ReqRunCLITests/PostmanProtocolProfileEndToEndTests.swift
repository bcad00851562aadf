import Foundation
import Testing
import TestSupport

/// `protocolProfileBehavior.disableCookies` and the TLS keys (`TLSChoice`) against httpbin's cookie routes
/// and nginx's TLS server (`/tls` answers the negotiated version and cipher).
@Suite struct PostmanProtocolProfileEndToEndTests {
    private func item(_ name: String, _ url: String, _ profile: String, test: String) -> String {
        """
        {"name": "\(name)", "protocolProfileBehavior": {\(profile)},
         "event": [{"listen": "test", "script": {"exec": [\(String(decoding: try! JSONSerialization.data(withJSONObject: [test]), as: UTF8.self).dropFirst().dropLast())]}}],
         "request": {"method": "GET", "url": "\(url)"}}
        """
    }

    @Test func disableCookiesAndTLSKeys() throws {
        let base = try TestServers.httpbin(), https = try TestServers.nginxHTTPS()
        let dir = try TemporaryDirectory()
        let items = [
            item("set", "\(base)/cookies/set?a=1", "", test: "pm.test('set', () => pm.expect(pm.response.json().cookies).to.eql({a: '1'}));"),
            item("blind", "\(base)/cookies", "\"disableCookies\": true", test: "pm.test('blind', () => pm.expect(pm.response.json().cookies).to.eql({}));"),
            item("nostore", "\(base)/cookies/set?b=2", "\"disableCookies\": true", test: "pm.test('nostore', () => pm.expect(pm.response.json().cookies).to.eql({}));"),
            item("seen", "\(base)/cookies", "", test: "pm.test('seen', () => pm.expect(pm.response.json().cookies).to.eql({a: '1'}));"),
            item("default", "\(https)/tls", "", test: "pm.test('default', () => pm.expect(pm.response.text()).to.match(/^TLSv1.3 /));"),
            item("tls12", "\(https)/tls", "\"tlsDisabledProtocols\": [\"TLSv1.3\"], \"tlsPreferServerCiphers\": true",
                 test: "pm.test('tls12', () => pm.expect(pm.response.text()).to.match(/^TLSv1.2 /));"),
            item("cipher", "\(https)/tls", "\"tlsDisabledProtocols\": [\"TLSv1_3\"], \"tlsCipherSelection\": [\"ECDHE-ECDSA-CHACHA20-POLY1305\"]",
                 test: "pm.test('cipher', () => pm.expect(pm.response.text()).to.equal('TLSv1.2 ECDHE-ECDSA-CHACHA20-POLY1305'));"),
        ]
        try dir.write("collections/profile.json", """
            {"info": {"name": "profile", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [\(items.joined(separator: ",\n"))]}
            """)
        let output = try ReqRunBinary.run(["run", "--all", "--cacert", try TestServers.testCA()], in: dir.url)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        for name in ["set", "blind", "nostore", "seen", "default", "tls12", "cipher"] {
            #expect(output.stdout.contains("✓ \(name)"), "\(name): \(output.stdout)")
        }
        #expect(!output.stderr.contains("not honoured"), "\(output.stderr)")
        // `import` keeps them as native fields, which load again.
        let imported = try ReqRunBinary.run(["import", "collections/profile.json", "--to", "native.json"], in: dir.url)
        #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
        let text = (try? String(contentsOf: dir.url.appendingPathComponent("native.json"), encoding: .utf8)) ?? ""
        #expect(text.contains("\"disableCookies\"") && text.contains("\"tlsDisabledProtocols\"") && text.contains("\"tlsCipherSelection\""), "\(text)")
    }
}
