import Foundation
import ReqRunKit

/// Checks `--cookie-jar FILE` before a run: libcurl writes the jar after the run without asking, so a
/// mistyped path must not replace a file that is not a cookie jar, and a jar that cannot be written must be
/// said before anything is sent.
enum CookieJarCheck {
    static func check(_ path: String) throws {
        try checkWritable(path, option: "--cookie-jar")
        // Only a regular file is read to check it: a FIFO would block, a device has nothing to say, and
        // both are written through, not replaced (`UserFile`).
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return }
        // libcurl reads the whole jar into memory.
        if let reason = FileSizeBound.cookieJar.refusal(path: path) { throw InputError(file: path, location: nil, reason: reason) }
        // A Netscape-format jar (curl, browsers' exports) starts with a comment line or a tab-separated
        // cookie line, Newman's (tough-cookie's JSON) with `{`; an empty file is fine too.
        let head = (FileManager.default.contents(atPath: path) ?? Data()).prefix(4096)
        let text = String(decoding: head, as: UTF8.self)
        let firstLine = text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
        guard text.isEmpty || firstLine.hasPrefix("#") || firstLine.split(separator: "\t").count >= 7 || ToughCookieJar.isToughCookieJar(head) else {
            throw InputError(file: path, location: nil, reason: ToughCookieJar.notAJar)
        }
    }

    /// Checks a file reqrun will write after the run (`--export-cookie-jar`): not a folder, and writable
    /// (or its folder, for a new file).
    static func checkWritable(_ path: String, option: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard !isDirectory.boolValue else { throw InputError(file: path, location: nil, reason: "\(option) names a folder, not a file") }
            guard access(path, W_OK) == 0 else { throw FileError(path: path, operation: "write the cookie jar", errno: errno) }
        } else {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            guard access(folder.isEmpty ? "." : folder, W_OK) == 0 else {
                throw FileError(path: folder, operation: "write the cookie jar into", errno: errno)
            }
        }
    }
}
