import Foundation
import UserBackendKit
import UserBackends

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The guest rule: no command discards a stored guest (anonymous) session without
/// `--force`, whether it signs out (`signout`) or stores a new session over it (`signup`,
/// `signin`, `signin --anonymous`, `phone verify`).
///
/// A guest account has no credential: once its session is gone nothing can sign in to it
/// again, so the account and its document are lost for good (they stay on the server,
/// unreachable). A tool that silently destroys data on a routine command invites loss; a
/// warning printed while doing it comes too late to act on, and scripts do not read it.
/// So the command refuses (exit 1, `invalidInput` naming `--force`) before any request or
/// password prompt, keeps the session, and names the way to keep the account
/// (`baas account link`); `--force` goes ahead with a warning on standard error.
///
/// A session file that others may read or write (mode 0644) is one `baas` does not use
/// (its tokens may have been read), and a sign-out or sign-in would discard it
/// (`FileSessionStore.loadForReplacement()`); when it holds a guest's session that is the
/// same loss, so the same rule applies, and the refusal names the file, its mode and both
/// ways out: make it private again (`chmod 600`) to keep the guest, or `--force`. A file
/// that does not decode or is too large holds no session `baas` could use, and is replaced
/// as before.
enum GuestSession {
  /// Refuses, unless `force`, when the session stored for `context`'s configuration is a
  /// guest's: `command` (`"signout"`, `"signin"`, `"signup"`, `"phone verify"`) would
  /// discard it. With `force`, prints the warning instead. A session file that cannot be
  /// read is left to the command, which reports it (or replaces it, as before).
  /// - Throws: the refusal, ``UserBackendKit/UserBackendError`` `.invalidInput` naming
  ///   `--force`; `BackendConfigurationError` when the configuration or the state directory
  ///   is unusable.
  static func check(_ context: Context, command: String, force: Bool) async throws {
    let store = try UserBackends.sessionStore(for: context.configuration())
    guard let stored = stored(in: store), stored.session?.user.isAnonymous == true else {
      return
    }
    guard force else {
      throw refusal(
        command: command, notPrivateMode: stored.notPrivateMode, file: store.fileURL.path)
    }
    Console.error(warning(command: command))
  }

  /// The session in `store`'s file, read only to decide: as the store reads it, except
  /// that a file others may read or write is read too (`notPrivateMode`, its permission
  /// bits), since a sign-in or sign-out would discard it. Nothing is printed. `nil` when
  /// there is no file or it cannot be read (another user's, a symbolic link, too large:
  /// the command reports those itself); a file that does not decode holds no session.
  private static func stored(in store: FileSessionStore) -> (
    session: AuthSession?, notPrivateMode: mode_t?
  )? {
    let path = store.fileURL.path
    var notPrivateMode: mode_t?
    guard
      let data = try? BoundedFileRead.data(
        contentsOf: store.fileURL, limit: BoundedFileRead.smallFileLimit,
        followSymbolicLinks: false,
        check: { status in
          try LocalFileTrust.checkOwner(status, path: path)
          let permissions = status.st_mode & 0o777
          if permissions & 0o077 != 0 { notPrivateMode = permissions }
        })
    else { return nil }
    // As `FileSessionStore` decodes it.
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    return ((try? decoder.decode(PersistedAuthState.self, from: data))?.session, notPrivateMode)
  }

  /// The refusal of `command` without `--force`; `notPrivateMode` when the session `file`
  /// is one `baas` does not use because others may read or write it.
  static func refusal(command: String, notPrivateMode: mode_t?, file: String)
    -> UserBackendError
  {
    let signOut = command == "signout"
    let loss =
      (signOut
        ? "signing out discards" : "`baas \(command)` would replace its session, discarding")
      + " it and its document for good, since nothing can sign in to it again"
    let link = "`baas account link --email E` (or --username U)"
    let forced =
      signOut ? "sign out with `baas signout --force`" : "replace it anyway by adding --force"
    guard let mode = notPrivateMode else {
      return UserBackendError(
        .invalidInput(
          field: "--force",
          reason:
            "the signed-in user is a guest (anonymous) account: \(loss). Keep it with \(link) "
            + "first, or \(forced)"))
    }
    return UserBackendError(
      .invalidInput(
        field: "--force",
        reason:
          "the session file \(file) is readable or writable by other users (mode "
          + "0\(String(mode, radix: 8))), so baas does not use it, and it holds a guest "
          + "(anonymous) account: \(loss). If nobody else can have read or changed it, make "
          + "it private again (chmod 600 \(file)) and keep the account with \(link); "
          + "otherwise \(forced)"))
  }

  /// The warning printed on standard error when `--force` lets `command` discard a guest.
  static func warning(command: String) -> String {
    command == "signout"
      ? "baas: warning: signing out a guest (anonymous) account: it and its document can no "
        + "longer be reached (`baas account link` would have kept them)"
      : "baas: warning: the new session replaces a guest (anonymous) account's: it and its "
        + "document can no longer be reached (`baas account link` would have kept them)"
  }
}
