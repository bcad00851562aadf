import Foundation
import ReqRunKit

/// Newman's cookie jars (`ToughCookieJar`): `--cookie-jar FILE` when FILE holds one (read before the run,
/// written back after it, as a Netscape jar is) and `--export-cookie-jar FILE` (written after the run).
enum CookieJarExport {
    /// Puts the cookies of a Newman jar at `jar` into the run's store (libcurl then neither reads nor writes
    /// the file) and asks the executor to keep its store for the jars written after the run.
    /// - Parameters: `jar`, `export`: absolute paths; `written`: `--cookie-jar` as typed, for messages.
    /// - Returns: the paths to write after the run (`write`).
    /// - Throws: `InputError` with `file:line:column` for a Newman jar that does not read.
    static func prepare(jar: String?, written: String?, export: String?, into options: inout ExecutorOptions) throws -> [String] {
        var paths: [String] = []
        if let jar, let cookies = try ToughCookieJar.load(jar, display: written ?? jar) {
            options.initialCookies = cookies
            options.cookieJarFile = nil
            paths.append(jar)
        }
        if let export { paths.append(export) }
        options.keepsCookieStore = !paths.isEmpty
        return paths
    }

    /// Writes the run's `cookies` to each of `paths` (mode 0600: cookies are credentials), each tried; false
    /// when one could not be written (said on stderr).
    static func write(_ cookies: [StoredCookie]?, to paths: [String], _ terminal: Terminal) -> Bool {
        guard let cookies, !paths.isEmpty else { return true }
        let bytes = ToughCookieJar.encode(cookies)
        var ok = true
        for path in paths {
            do {
                try UserFile.write(bytes, toPath: path, mode: 0o600)
                terminal.line(terminal.styled("cookie jar written to \(path)", .dim))
            } catch {
                terminal.error("\(error)")
                ok = false
            }
        }
        return ok
    }
}
