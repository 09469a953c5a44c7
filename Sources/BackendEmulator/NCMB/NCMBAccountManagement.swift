import AccountDatabase
import Foundation
import UserBackendKit

// Account management over the NCMB API (`docs/wire/ncmb.md`, "Account management in the
// emulator"). NCMB has no re-authentication and no out-of-band code API: a password reset
// or an address confirmation is finished on the service's web page from the mail. The
// emulator shares its accounts with the Firebase API, so a reset requested here records a
// `PASSWORD_RESET` code that `GET /emulator/v1/projects/{id}/oobCodes` lists and
// `accounts:resetPassword` completes, and `mailAddressConfirm` shows a verification
// completed with a `VERIFY_EMAIL` code.
extension NCMBHandler {
  /// Changes the account's `mailAddress` (canonical; `E400004` when malformed, `E409001
  /// mailAddress is duplication.` when another account has it); the new address is not
  /// confirmed (`mailAddressConfirm: false`). The same address again changes nothing.
  func changeMailAddress(of user: UserRecord, to mail: String) throws(NCMBError) {
    let canonical = try Self.validMailAddress(mail)
    guard canonical != user.email else { return }
    if try ncmbStore({ try store.user(email: canonical) }) != nil {
      throw .duplicate("mailAddress")
    }
    do {
      try store.updateEmail(userID: user.id, to: canonical)
    } catch UserStoreError.duplicate(field: "email") {
      throw .duplicate("mailAddress")
    } catch {
      throw NCMBError.from(error)
    }
  }

  /// Changes the user's `userName` (`E409001` when another account has it). For an
  /// anonymous user the new name needs a `password` in the same request (`E400003
  /// password is empty.` otherwise): the guest becomes a password account with the same
  /// `objectId`, as the service does when a guest is given a user name and a password.
  ///
  /// - Returns: the updated record (unchanged when the name is the same).
  func changeUserName(of user: UserRecord, to name: String, password: String?)
    throws(NCMBError) -> UserRecord
  {
    let canonical = try Self.validUserName(name)
    guard canonical != user.username else { return user }
    if try ncmbStore({ try store.user(username: canonical) }) != nil {
      throw .duplicate("userName")
    }
    do {
      if user.isAnonymous {
        guard let password, !password.isEmpty else { throw NCMBError.empty("password") }
        try Self.checkPassword(password)
        return try store.linkPassword(
          userID: user.id, email: nil, username: canonical, password: password)
      }
      return try store.updateUsername(userID: user.id, to: canonical)
    } catch let error as NCMBError {
      throw error
    } catch UserStoreError.duplicate(field: "username") {
      throw .duplicate("userName")
    } catch {
      throw NCMBError.from(error)
    }
  }

  /// Records a `PASSWORD_RESET` code for the enabled account with `email`, if any.
  func recordPasswordResetCode(email: String) throws(NCMBError) {
    guard let user = try ncmbStore({ try store.user(email: email) }), !user.disabled else {
      return
    }
    _ = try ncmbStore { try store.issueOutOfBandCode(.passwordReset, userID: user.id) }
  }
}
