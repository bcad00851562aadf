import Foundation
import ReqRunKit

/// Newman's `--ssl-client-passphrase`, reqrun's `--ssl-client-passphrase-file` and Newman's
/// `--ssl-client-cert-list`, read into `ExecutorOptions` (listed in `TransferOptions.specs`).
enum ClientCertificateOptions {
    /// - Throws: `UsageError` for both passphrase options, or one without `--key`/`--cert`; `InputError` for a
    ///   passphrase file or a list that cannot be read or decoded (`ClientCertificateList`); the list's `src`
    ///   files must lie inside the workspace, a `--file-root` folder or the list's own folder.
    static func parse(_ arguments: ParsedArguments, _ spec: CommandSpec, into options: inout ExecutorOptions) throws {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let absolute = { (path: String) in URL(fileURLWithPath: path, relativeTo: cwd).standardizedFileURL.path }
        let file = arguments.value("--ssl-client-passphrase-file")
        if let passphrase = arguments.value("--ssl-client-passphrase") {
            guard file == nil else {
                throw UsageError(message: "give only one of --ssl-client-passphrase and --ssl-client-passphrase-file", command: spec)
            }
            options.clientKeyPassphrase = passphrase
        } else if let file {
            options.clientKeyPassphrase = try ClientCertificateList.passphrase(fromFile: absolute(file), display: file)
        }
        if options.clientKeyPassphrase != nil, options.clientKey == nil, options.clientCertificate == nil {
            let option = file == nil ? "--ssl-client-passphrase" : "--ssl-client-passphrase-file"
            throw UsageError(message: "\(option) is the passphrase of --key (or of a --cert that holds its key); "
                             + "entries of --ssl-client-cert-list have their own 'passphrase'", command: spec)
        }
        if let list = arguments.value("--ssl-client-cert-list") {
            let workspace = try WorkspaceContext.locate(arguments)
            let roots = workspace.fileRoots(allowing: try WorkspaceContext.fileRoots(arguments))
            options.clientCertificateList = try ClientCertificateList.load(absolute(list), display: list, roots: roots)
        }
    }
}
