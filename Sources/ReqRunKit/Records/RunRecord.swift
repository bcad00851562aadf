import Foundation

/// One run, as written to `.reqrun/runs/<id>.json` (fields documented in the README, "Run records").
public struct RunRecord: Codable, Sendable, Equatable {
    /// Version of this record format; bumped when a field changes meaning.
    public var format: Int = 1
    /// The run id, e.g. `20261129-133428-123-4f2a` (UTC start time, then 4 random hex digits).
    public var id: String
    /// Start and end, ISO 8601 UTC with milliseconds.
    public var startedAt: String
    public var endedAt: String
    public var reqrunVersion: String
    /// `curl_version()`'s text, e.g. `libcurl/7.88.1 OpenSSL/3.0.19 …`.
    public var libcurlVersion: String
    /// The workspace folder, absolute.
    public var workspace: String
    /// The environment used (`--env` or `reqrun env use`), if any.
    public var environment: String?
    public var selection: RunSelection
    public var summary: RunSummary
    /// Every selected request in list order.
    public var results: [RequestResult]

    public init(id: String, startedAt: String, endedAt: String, reqrunVersion: String, libcurlVersion: String,
                workspace: String, environment: String? = nil, selection: RunSelection, results: [RequestResult]) {
        self.environment = environment
        self.id = id
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.reqrunVersion = reqrunVersion
        self.libcurlVersion = libcurlVersion
        self.workspace = workspace
        self.selection = selection
        self.results = results
        self.summary = RunSummary(results)
    }
}

/// What a run was asked to run.
public struct RunSelection: Codable, Sendable, Equatable {
    /// `expanded`, `groups`, `named`, `all` or `send`.
    public var mode: String
    /// For `groups`: the group paths and ids selected.
    public var groups: [SelectedGroup]
    /// Names given with `--var` (values are not recorded: they may be secrets).
    public var overriddenVariables: [String]
    /// For `named` (`run NAME…` naming a collection or a request) and `send`: what each argument named,
    /// as `RunTarget.displayPath`; nil otherwise.
    public var named: [String]?
    /// For one part of a sharded run (`--shard K/N`): which part, and where its results sit in the whole.
    public var shard: ShardRecord?
    /// For a run joined by `reqrun merge`: the parts it was joined from.
    public var merged: MergedShards?

    public init(mode: String, groups: [SelectedGroup] = [], overriddenVariables: [String] = [], named: [String]? = nil) {
        self.mode = mode
        self.groups = groups
        self.overriddenVariables = overriddenVariables
        self.named = named
    }
}

public struct SelectedGroup: Codable, Sendable, Equatable {
    public var path: String
    public var id: String

    public init(path: String, id: String) {
        self.path = path
        self.id = id
    }
}

/// Counts of a run's results. `passed + failed + errors + skipped + notRun == total`.
public struct RunSummary: Codable, Sendable, Equatable {
    public var total: Int
    /// Requests that got a response and met every expectation and capture.
    public var passed: Int
    /// Requests that got a response but missed an expectation or a capture.
    public var failed: Int
    /// Requests not sent (`invalid`), that got no response (`transportError`) or whose script failed (`scriptError`).
    public var errors: Int
    /// Requests not sent because of their scheme; a skip does not fail a run.
    public var skipped: Int
    /// Requests not run because `--bail` stopped the run.
    public var notRun: Int
    /// Requests that got a response, whatever its checks: `passed + failed`.
    public var responded: Int

    public init(_ results: [RequestResult]) {
        // One pass that only reads: `filter` would copy every result it keeps.
        (total, responded, passed, skipped, notRun) = (results.count, 0, 0, 0, 0)
        for result in results {
            switch result.outcome {
            case .response: responded += 1; if result.passed { passed += 1 }
            case .skipped: skipped += 1
            case .notRun: notRun += 1
            case .transportError, .invalid, .scriptError: break
            }
        }
        failed = responded - passed
        errors = total - responded - skipped - notRun
    }

    /// `4 requests: 2 passed, 1 failed, 0 errors, 1 skipped` (`, 3 not run` after `--bail` or a cancel): the
    /// summary line of `reqrun run` and `show`, and of the full-screen UI's `r`.
    public var text: String {
        "\(total) request\(total == 1 ? "" : "s"): \(passed) passed, \(failed) failed, "
            + "\(errors) error\(errors == 1 ? "" : "s"), \(skipped) skipped"
            + (notRun > 0 ? ", \(notRun) not run" : "")
    }
}

/// One request's result.
public struct RequestResult: Codable, Sendable, Equatable {
    public enum Outcome: String, Codable, Sendable {
        /// A response arrived (whatever its status code).
        case response
        /// Sent, but the transfer failed: connection refused, DNS failure, timeout, TLS… (`error` says which).
        case transportError
        /// Not sent because it could not be prepared (undefined variable, forbidden character).
        case invalid
        /// Not sent because of its scheme (`wss://`, `ftp://`, `file://`…).
        case skipped
        /// Not sent because `--bail` stopped the run at an earlier failure.
        case notRun
        /// A pre-request or test script failed: a syntax error, an uncaught exception or the time limit
        /// (`error` says which, where); not sent when it was a pre-request script.
        case scriptError
    }

    /// Position in list order across the workspace, from 0.
    public var index: Int
    public var collection: String
    /// Group names from the top.
    public var groupPath: [String]
    /// The id of the group holding the request (lower-case UUID).
    public var groupID: String
    public var name: String
    public var method: String
    /// The URL as first sent (variables resolved; redirects are in `redirects`), or the template when it
    /// could not be resolved.
    public var url: String
    public var outcome: Outcome
    /// Why it was not sent, or the transport error.
    public var error: ResultError?
    /// What was sent: header fields in order (the ones reqrun adds included) and the content size in bytes.
    public var request: SentRequest?
    public var response: ResponseRecord?
    /// Phase times in microseconds from the start of the transfer (`CURLINFO_*_TIME_T`); present when sent.
    public var timings: Timings?
    /// When the transfer started (ISO 8601 UTC, milliseconds); present when sent.
    public var startedAt: String?
    /// Microseconds from the run's start to the transfer's start; present when sent.
    public var startOffset: Int?
    /// True when a response arrived and every expectation and capture succeeded.
    public var passed: Bool
    /// Each expectation's outcome, in the order written.
    public var expectations: [ExpectationResult]
    /// Each capture's outcome, in the order written.
    public var captures: [CaptureResult]
    /// Redirects followed before the final response, in order.
    public var redirects: [RedirectHop] = []
    /// How many times the request was sent (more than 1 after `--retry`).
    public var attempts: Int = 1
    /// What its scripts wrote with `console.*`, in order; nil when nothing.
    public var console: [String]?
    /// The requests its scripts sent with `pm.sendRequest`, in order; nil when none.
    public var scriptRequests: [ScriptExchange]?
    /// A WebSocket request's messages (the handshake is `request` and `response`); nil for HTTP requests.
    public var webSocket: WebSocketRecord?
    /// The earlier attempts of a request sent again until it passed (`retry`, `--retry-until-pass`); nil
    /// when it was not sent again.
    public var polls: [PollAttempt]?
    /// The iteration it belongs to, from 0 (`pm.info.iteration`), in runs with `--iterations` or
    /// `--iteration-data`; nil otherwise.
    public var iteration: Int?

    public init(index: Int, collection: String, groupPath: [String], groupID: String, name: String, method: String,
                url: String, outcome: Outcome, error: ResultError? = nil, request: SentRequest? = nil,
                response: ResponseRecord? = nil, timings: Timings? = nil, startedAt: String? = nil, startOffset: Int? = nil,
                expectations: [ExpectationResult] = [], captures: [CaptureResult] = []) {
        self.startedAt = startedAt
        self.startOffset = startOffset
        self.expectations = expectations
        self.captures = captures
        self.index = index
        self.collection = collection
        self.groupPath = groupPath
        self.groupID = groupID
        self.name = name
        self.method = method
        self.url = url
        self.outcome = outcome
        self.error = error
        self.request = request
        self.response = response
        self.timings = timings
        self.passed = outcome == .response && expectations.allSatisfy(\.passed) && captures.allSatisfy { $0.error == nil }
    }

    /// Recomputes `passed` after the outcome, expectations or captures changed.
    public mutating func updateVerdict() {
        passed = outcome == .response && expectations.allSatisfy(\.passed) && captures.allSatisfy { $0.error == nil }
    }

    /// Whether this result stops a run under `--bail`: an error, or a response that missed a check.
    public var isFailure: Bool {
        switch outcome {
        case .response: return !passed
        case .invalid, .transportError, .scriptError: return true
        case .skipped, .notRun: return false
        }
    }
}

/// Why a request failed or was skipped. `curlCode` is libcurl's `CURLcode` (e.g. 7 = could not connect,
/// 28 = timeout) when the failure came from libcurl.
public struct ResultError: Codable, Sendable, Equatable {
    public var curlCode: Int?
    public var message: String

    public init(curlCode: Int? = nil, message: String) {
        self.curlCode = curlCode
        self.message = message
    }
}

public struct SentRequest: Codable, Sendable, Equatable {
    public var headers: [HeaderField]
    /// Content length in bytes (0 for none).
    public var bodySize: Int
    /// The first `RunRecord.bodyLimit` bytes of the content sent, if any.
    public var body: RecordedBody?

    public init(headers: [HeaderField], bodySize: Int, body: RecordedBody? = nil) {
        self.headers = headers
        self.bodySize = bodySize
        self.body = body
    }
}

/// The final response of a transfer.
public struct ResponseRecord: Codable, Sendable, Equatable {
    /// Status code (RFC 9110 §15).
    public var status: Int
    /// The reason phrase of the status line (`OK`; empty in HTTP/2 and 3, which have none).
    public var reasonPhrase: String
    /// `1.0`, `1.1`, `2` or `3`.
    public var httpVersion: String
    /// Header fields in the order received, repeated names kept.
    public var headers: [HeaderField]
    /// Size of the content in bytes, after content decoding (gzip, br, zstd…).
    public var bodySize: Int
    /// Size of the content in bytes as it came over the wire, before content decoding (equal to
    /// `bodySize` when the content was not encoded).
    public var wireSize: Int
    /// SHA-256 of the whole content, lower-case hex.
    public var bodySHA256: String
    /// The first `RunRecord.bodyLimit` bytes of the content.
    public var body: RecordedBody
    /// The peer's IP address and port.
    public var remoteAddress: String?
    public var remotePort: Int?

    public init(status: Int, reasonPhrase: String = "", httpVersion: String, headers: [HeaderField], bodySize: Int,
                wireSize: Int? = nil, bodySHA256: String, body: RecordedBody, remoteAddress: String?, remotePort: Int?) {
        self.wireSize = wireSize ?? bodySize
        self.status = status
        self.reasonPhrase = reasonPhrase
        self.httpVersion = httpVersion
        self.headers = headers
        self.bodySize = bodySize
        self.bodySHA256 = bodySHA256
        self.body = body
        self.remoteAddress = remoteAddress
        self.remotePort = remotePort
    }
}

/// A response body prefix, kept safely: UTF-8 text as text, anything else as base64.
public struct RecordedBody: Codable, Sendable, Equatable {
    /// `utf8` or `base64`.
    public var encoding: String
    public var data: String
    /// True when the content was longer than what is kept.
    public var truncated: Bool
    /// The kept bytes as text in the charset the response declares (`Content-Type`, an HTML `<meta>`, an XML
    /// declaration) when that is not UTF-8 (`ISO-8859-1`, `windows-1252`, `Shift_JIS`…) and they are valid in
    /// it; absent otherwise. `data` keeps the bytes either way.
    public var text: String?

    /// Keeps `prefix`; when it is valid UTF-8 (allowing a character cut at the end of a truncated
    /// prefix) it is stored as text, else as base64.
    public init(prefix: [UInt8], truncated: Bool) {
        self.truncated = truncated
        var bytes = prefix[...]
        if truncated {
            // A limit may fall inside a multi-byte character: drop up to 3 bytes of an incomplete tail.
            for cut in 0...min(3, bytes.count) where String(validating: prefix.dropLast(cut), as: UTF8.self) != nil {
                bytes = prefix.dropLast(cut)
                break
            }
        }
        if let text = String(validating: bytes, as: UTF8.self) {
            encoding = "utf8"
            data = text
        } else {
            encoding = "base64"
            data = Data(prefix).base64EncodedString()
        }
    }
}

/// Phase times in microseconds since the transfer started, curl's names (`CURLINFO_*_TIME_T`): each is
/// cumulative, so `namelookup ≤ connect ≤ appconnect ≤ pretransfer ≤ starttransfer ≤ total`
/// (`appconnect` is 0 without TLS).
public struct Timings: Codable, Sendable, Equatable {
    public var namelookup: Int
    public var connect: Int
    public var appconnect: Int
    public var pretransfer: Int
    public var starttransfer: Int
    public var total: Int

    public init(namelookup: Int, connect: Int, appconnect: Int, pretransfer: Int, starttransfer: Int, total: Int) {
        self.namelookup = namelookup
        self.connect = connect
        self.appconnect = appconnect
        self.pretransfer = pretransfer
        self.starttransfer = starttransfer
        self.total = total
    }
}

extension RunRecord {
    /// How many bytes of each response body a record keeps: 64 KiB. The size and SHA-256 always cover the
    /// whole body, and memory stays bounded whatever the response size.
    public static let bodyLimit = 64 * 1024
}
