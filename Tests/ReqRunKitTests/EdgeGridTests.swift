import Foundation
import Testing
import TestSupport
@testable import ReqRunKit

/// Akamai EdgeGrid (`EG1-HMAC-SHA256`): the header reqrun computes equals edgegrid-python's (akamai.edgegrid)
/// for the same inputs, and the Postman and native forms map to the same fields. (Sent to a server that
/// verifies it: `ComputedAuthEndToEndTests.edgegridHeadersVerifyWithEdgegridPython`.)
@Suite struct EdgeGridTests {
    /// edgegrid-python's header for a request (`url`, `method`, `headers`, `body`) with the given inputs.
    private func pythonHeader(_ url: String, method: String, headers: [(String, String)], body: String, signed: [String],
                              maxBody: Int, timestamp: String, nonce: String) throws -> String {
        let script = """
            import json, sys
            from akamai.edgegrid.edgegrid import EdgeGridAuthHeaders
            from requests.structures import CaseInsensitiveDict
            a = json.loads(sys.argv[1])
            class Sent:
                method, url, body = a["method"], a["url"], a["body"].encode()
                headers = CaseInsensitiveDict(dict(a["headers"]))
            signer = EdgeGridAuthHeaders("akab-ct", "secret+/=", "akab-at", headers_to_sign=a["signed"], max_body=a["maxBody"])
            print(signer.make_auth_header(Sent, a["timestamp"], a["nonce"]), end="")
            """
        let input: [String: Any] = ["url": url, "method": method, "headers": headers.map { [$0.0, $0.1] }, "body": body,
                                    "signed": signed, "maxBody": maxBody, "timestamp": timestamp, "nonce": nonce]
        return try Python.run(script, [String(decoding: try JSONSerialization.data(withJSONObject: input), as: UTF8.self)])
    }

    @Test func headersEqualEdgegridPythonsForTheSameInputs() throws {
        let timestamp = "20261201T14:30:05+0000", nonce = "0f6c0a3e-6e6b-4b8e-9c59-4f1b1a3d2c7e"
        func reqrun(_ url: String, method: String, headers: [HeaderField], body: String, auth: EdgeGridAuth) throws -> String {
            var request = PreparedRequest(method: method, url: url, headers: headers, body: body.isEmpty ? nil : .bytes(Array(body.utf8)))
            _ = try EdgeGridSigner.sign(auth, &request)
            return try #require(request.headers.last?.value)
        }
        let auth = EdgeGridAuth(accessToken: "akab-at", clientToken: "akab-ct", clientSecret: "secret+/=", nonce: nonce, timestamp: timestamp)
        // A GET with a query and two signed fields (one with runs of white space, one not sent).
        var signing = auth
        signing.headersToSign = " X-One ,x-two, X-Absent"
        let fields = [HeaderField(name: "X-One", value: "  a   b\tc "), HeaderField(name: "x-TWO", value: "2")]
        #expect(try reqrun("https://akab-h.luna.akamaiapis.net/papi/v1/groups?b=2&a=1", method: "GET", headers: fields, body: "", auth: signing)
                == pythonHeader("https://akab-h.luna.akamaiapis.net/papi/v1/groups?b=2&a=1", method: "GET", headers: [("Host", "akab-h.luna.akamaiapis.net"), ("X-One", "  a   b\tc "), ("x-TWO", "2")],
                                body: "", signed: ["x-one", "x-two", "x-absent"], maxBody: 131072, timestamp: timestamp, nonce: nonce))
        // A POST body longer than maxBodySize: the first 10 bytes are hashed.
        var limited = auth
        limited.maxBodySize = "10"
        #expect(try reqrun("http://127.0.0.1:8080/p", method: "POST", headers: [], body: #"{"long": "body beyond ten bytes"}"#, auth: limited)
                == pythonHeader("http://127.0.0.1:8080/p", method: "POST", headers: [("Host", "127.0.0.1:8080")], body: #"{"long": "body beyond ten bytes"}"#,
                                signed: [], maxBody: 10, timestamp: timestamp, nonce: nonce))
        // baseURL: its host is signed, not the request's (edgegrid-python signs the Host field it is given).
        var based = auth
        based.baseURL = "https://akab-base.luna.akamaiapis.net/"
        #expect(try reqrun("http://127.0.0.1:8080/p", method: "PUT", headers: [], body: "not hashed", auth: based)
                == pythonHeader("http://127.0.0.1:8080/p", method: "PUT", headers: [("Host", "akab-base.luna.akamaiapis.net")], body: "not hashed",
                                signed: [], maxBody: 131072, timestamp: timestamp, nonce: nonce))
    }

    @Test func timestampNonceRepeatsAndLimits() throws {
        #expect(EdgeGridSigner.timestamp(Date(timeIntervalSince1970: 1_764_599_405)) == "20251201T14:30:05+0000")
        // A field sent twice or empty is not signed (postman-runtime's canonicalizeHeaders).
        let headers = [HeaderField(name: "A", value: "1"), HeaderField(name: "a", value: "2"), HeaderField(name: "B", value: " "), HeaderField(name: "C", value: "3")]
        #expect(EdgeGridSigner.canonicalHeaders("a,b,c", headers) == "c:3")
        var request = PreparedRequest(method: "GET", url: "http://h.example/", headers: [], body: nil)
        let made = try EdgeGridSigner.sign(EdgeGridAuth(accessToken: "at", clientToken: "ct", clientSecret: "cs"), &request)
        let header = try #require(request.headers.first?.value)
        // Without a fixed nonce: a random UUID, in lower case as postman-runtime's crypto.randomUUID().
        let nonce = try #require(header.components(separatedBy: "nonce=").last?.prefix(36))
        #expect(UUID(uuidString: String(nonce)) != nil && nonce == nonce.lowercased())
        #expect(made.count == 1 && header.hasSuffix("signature=" + made[0]))
        var bad = request
        #expect(throws: PreparationFailure.invalidAuth("EdgeGrid maxBodySize 'lots' is not a whole number of bytes")) {
            try EdgeGridSigner.sign(EdgeGridAuth(accessToken: "at", clientToken: "ct", clientSecret: "cs", maxBodySize: "lots"), &bad)
        }
    }

    @Test func postmanAndNativeFormsMapToTheSameFields() throws {
        let postman = try CollectionDecoder.decode(Array("""
            {"info": {"name": "E", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": [
              {"name": "full", "request": {"url": "x", "auth": {"type": "edgegrid", "edgegrid": [
                {"key": "accessToken", "value": "{{at}}"}, {"key": "clientToken", "value": "ct"}, {"key": "clientSecret", "value": "{{cs}}"},
                {"key": "nonce", "value": "n"}, {"key": "timestamp", "value": "t"}, {"key": "baseURL", "value": "https://b.example"},
                {"key": "headersToSign", "value": "X-A,X-B"}, {"key": "maxBodySize", "value": "2048"}]}}},
              {"name": "no secret", "request": {"url": "x", "auth": {"type": "edgegrid", "edgegrid": {"accessToken": "at", "clientToken": "ct"}}}}
            ]}
            """.utf8), file: "p.json", fileName: "p.json")
        let expected = EdgeGridAuth(accessToken: "{{at}}", clientToken: "ct", clientSecret: "{{cs}}", nonce: "n", timestamp: "t",
                                    baseURL: "https://b.example", headersToSign: "X-A,X-B", maxBodySize: "2048")
        func requests(_ collection: RequestCollection) -> [RequestReference] {
            Outline(collections: [collection], expansion: .transient([])).allRequests()
        }
        #expect(requests(postman).map(\.effectiveAuth) == [.edgegrid(expected), Auth.none])
        #expect(postman.warnings.isEmpty, "\(postman.warnings)")
        let native = try CollectionDecoder.decode(Array(CollectionEncoder.encode(postman).utf8), file: "n.json", fileName: "n.json")
        #expect(requests(native).first?.effectiveAuth == .edgegrid(expected))
        #expect(Auth.edgegrid(expected).secretTemplates == ["{{cs}}", "{{at}}", "ct"])
        #expect(throws: InputError.self) {
            try CollectionDecoder.decode(Array(#"{"name": "N", "requests": [{"url": "a", "auth": {"type": "edgegrid", "accessToken": "a", "clientToken": "c"}}]}"#.utf8),
                                         file: "n.json", fileName: "n.json")
        }
    }
}
