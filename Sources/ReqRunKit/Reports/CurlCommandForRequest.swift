extension CurlCommand {
    /// The shell-quoted curl command that sends what `reqrun run` would send for `reference` (variables
    /// resolved with `configuration`'s environment and `--var` values, auth applied, the configuration's
    /// executor options), secrets masked as `****` unless `configuration.showSecrets`. `show --curl` and the
    /// UI's `c` print it.
    /// - Returns: the command line, or why the request cannot be built (undefined variable…).
    public static func commandLine(for reference: RequestReference, configuration: RunConfiguration) -> Result<String, PreparationFailure> {
        let scope = Runner.scope(for: reference, configuration, captured: VariableLayer.captures())
        switch RequestPreparation.prepare(reference.request, scope: scope, auth: reference.effectiveAuth) {
        case .failure(let failure):
            return .failure(failure)
        case .success(var prepared):
            let masker = SecretMasker(values: scope.secretValues() + prepared.secrets, enabled: !configuration.showSecrets)
            prepared.headers = masker.mask(prepared.headers)
            // Masked before quoting, which can change a secret's spelling (`'\''`, `$'\x1b'`); the quoted
            // command has no raw control character left to escape (`shellQuoted`).
            return .success(commandLine(arguments(prepared, options: configuration.options, redirects: configuration.redirects).map(masker.mask)))
        }
    }
}
