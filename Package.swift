// swift-tools-version: 6.0
// reqrun: a command-line runner for collections of HTTP requests, on libcurl.
import PackageDescription

/// Where Debian puts JavaScriptCore's headers (pkg-config `javascriptcoregtk-4.1 --cflags`). Not through
/// `pkgConfig:`, which would also link the library into every executable.
let javaScriptCoreHeaders = SwiftSetting.unsafeFlags(["-Xcc", "-I/usr/include/webkitgtk-4.1"])
/// Where Debian puts libxml2's headers (pkg-config `libxml-2.0 --cflags`), for the same reason: the library
/// is loaded with dlopen by the first xpath check.
let libxml2Headers = SwiftSetting.unsafeFlags(["-Xcc", "-I/usr/include/libxml2"])

let package = Package(
    name: "reqrun",
    products: [
        .executable(name: "reqrun", targets: ["reqrun"]),
        .library(name: "ReqRunKit", targets: ["ReqRunKit"]),
    ],
    targets: [
        // libcurl through pkg-config; shim.h holds typed, non-variadic wrappers (Swift cannot call C varargs).
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // OpenSSL's libcrypto for SHA-1 (name-based UUIDs, RFC 9562 §5.5) and SHA-256 (response bodies), and HMAC
        // and RSA signatures for the auth reqrun computes (OAuth 1.0a, Hawk, JWT).
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // JavaScriptCore's C API for Postman scripts (libjavascriptcoregtk-4.1-dev): headers only, the library is
        // loaded with dlopen when a run has scripts (shim.h), so nothing else links it.
        .systemLibrary(
            name: "CJavaScriptCore",
            providers: [.apt(["libjavascriptcoregtk-4.1-dev"])]
        ),
        // ncurses with wide characters, for the full-screen UI only (`reqrun ui`): the core never links it.
        .systemLibrary(
            name: "CNcurses",
            providers: [.apt(["libncurses-dev"])]
        ),
        // libxml2 for the xpath check (XML and HTML bodies); imported by one file of ReqRunKit, XPathQuery.swift.
        // Headers only: loaded with dlopen by the first xpath check (shim.h).
        .systemLibrary(
            name: "CXML2",
            providers: [.apt(["libxml2-dev"])]
        ),
        .target(name: "ReqRunKit", dependencies: ["CCurl", "CCrypto", "CXML2"], swiftSettings: [libxml2Headers]),
        // Pre-request and test scripts of Postman collections (postman-sandbox's API, chai from libjs-chai).
        .target(name: "PostmanSandbox", dependencies: ["ReqRunKit", "CJavaScriptCore"],
                swiftSettings: [javaScriptCoreHeaders]),
        .target(name: "ReqRunUI", dependencies: ["ReqRunKit", "CNcurses"]),
        .target(name: "ReqRunCLI", dependencies: ["ReqRunKit", "PostmanSandbox", "ReqRunUI"]),
        .executableTarget(name: "reqrun", dependencies: ["ReqRunCLI"]),
        // Helpers shared by the test targets: local servers, temporary folders, running the built binary.
        .target(name: "TestSupport", dependencies: ["ReqRunKit"], path: "Tests/TestSupport"),
        .testTarget(name: "ReqRunKitTests", dependencies: ["ReqRunKit", "TestSupport"]),
        .testTarget(name: "PostmanSandboxTests", dependencies: ["PostmanSandbox", "ReqRunKit"]),
        .testTarget(name: "ReqRunCLITests", dependencies: ["ReqRunCLI", "ReqRunKit", "TestSupport", "reqrun"]),
    ],
    swiftLanguageModes: [.v6]
)
