import UserBackendKit

/// Why `baas signout` refuses a guest (anonymous) user without `--force`.
///
/// A guest account has no credential: once its session is gone nothing can sign in to it
/// again, so the account and its document are lost for good (they stay on the server,
/// unreachable). A tool that silently destroys data on a routine command invites loss; a
/// warning printed while doing it comes too late to act on, and scripts do not read it.
/// So the command refuses (exit 1, `invalidInput` naming `--force`), keeps the session,
/// and names the way to keep the account (`baas account link`); `--force` signs out
/// anyway with a warning on standard error.
enum GuestSignOut {
  /// The refusal without `--force`.
  static let refusal = UserBackendError(
    .invalidInput(
      field: "--force",
      reason:
        "the signed-in user is a guest (anonymous) account: signing out discards it and its "
        + "document for good, since nothing can sign in to it again. Keep it with "
        + "`baas account link --email E` (or --username U) first, or sign out with "
        + "`baas signout --force`"))

  /// The warning printed on standard error when `--force` signs a guest out.
  static let warning =
    "baas: warning: signing out a guest (anonymous) account: it and its document can no "
    + "longer be reached (`baas account link` would have kept them)"
}
