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

  /// Records a `PASSWORD_RESET` code for the enabled account with `email`, if any.
  func recordPasswordResetCode(email: String) throws(NCMBError) {
    guard let user = try ncmbStore({ try store.user(email: email) }), !user.disabled else {
      return
    }
    _ = try ncmbStore { try store.issueOutOfBandCode(.passwordReset, userID: user.id) }
  }
}
