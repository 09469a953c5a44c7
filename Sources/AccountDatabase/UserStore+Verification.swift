import Foundation
import UserBackendKit

extension UserStore {
  // MARK: - Phone verification

  /// Wrong codes accepted for one verification before it is dropped (then the ID is
  /// unknown and a new code must be requested), so a 6-digit code cannot be guessed.
  public static let maximumPhoneCodeAttempts = 5

  /// Starts a phone verification: stores a random 6-digit code for `phoneNumber` that
  /// expires after the store's `phoneCodeLifetime`. No SMS is sent; tests and the emulator
  /// read the code from the result or from ``pendingPhoneVerifications()``.
  ///
  /// The number is stored in its canonical E.164 form
  /// (``UserBackendKit/IdentifierCanonicalization/phoneNumber(_:)``).
  /// - Returns: the verification (ID: 24 random bytes as base64url).
  /// - Throws: ``UserBackendKit/UserBackendError`` `invalidInput(field: "phoneNumber")`
  ///   for a number the canonicaliser refuses; ``UserStoreError/database(message:)``.
  public func startPhoneVerification(phoneNumber: String) throws -> PhoneVerification {
    let phoneNumber = try IdentifierCanonicalization.phoneNumber(phoneNumber)
    let code = String(format: "%06d", randomness.int(in: 0..<1_000_000))
    let now = clock.now()
    let verification = PhoneVerification(
      verificationID: Base64URL.encode(randomness.bytes(24)),
      phoneNumber: phoneNumber, code: code,
      expiresAt: now.addingTimeInterval(phoneCodeLifetime))
    try locked { db in
      try db.run(
        "INSERT INTO phone_verifications (id, phone_number, code, created_at, expires_at) "
          + "VALUES (?, ?, ?, ?, ?)",
        [
          .text(verification.verificationID), .text(verification.phoneNumber), .text(code),
          .real(now.timeIntervalSince1970), .real(verification.expiresAt.timeIntervalSince1970),
        ])
    }
    return verification
  }

  /// Completes a phone verification. A correct code consumes it (it cannot be used twice);
  /// an expired one is deleted; a wrong one leaves it pending, until the
  /// ``maximumPhoneCodeAttempts``-th wrong code deletes it.
  ///
  /// - Returns: the verified phone number.
  /// - Throws: ``UserStoreError/unknownVerification``, ``UserStoreError/verificationExpired``,
  ///   ``UserStoreError/invalidVerificationCode``, ``UserStoreError/database(message:)``.
  public func completePhoneVerification(verificationID: String, code: String) throws -> String {
    let now = clock.now().timeIntervalSince1970
    enum Outcome {
      case verified(String)
      case expired
      case wrongCode
    }
    let outcome: Outcome = try locked { db in
      try db.transaction {
        let found = try db.first(
          "SELECT phone_number, code, expires_at, failed_attempts FROM phone_verifications "
            + "WHERE id = ?", [.text(verificationID)]
        ) { row in
          (
            phoneNumber: row.text(0) ?? "", code: row.text(1) ?? "",
            expiresAt: try row.date(2, "phone_verifications.expires_at").timeIntervalSince1970,
            failedAttempts: Int(row.integer(3))
          )
        }
        guard let found else { throw UserStoreError.unknownVerification }
        if now >= found.expiresAt {
          try db.run("DELETE FROM phone_verifications WHERE id = ?", [.text(verificationID)])
          return .expired
        }
        guard Crypto.constantTimeEquals(Data(code.utf8), Data(found.code.utf8)) else {
          // `>= maximum - 1`, not `+ 1 >= maximum`: the count comes from the file.
          if found.failedAttempts >= Self.maximumPhoneCodeAttempts - 1 {
            try db.run("DELETE FROM phone_verifications WHERE id = ?", [.text(verificationID)])
          } else {
            try db.run(
              "UPDATE phone_verifications SET failed_attempts = failed_attempts + 1 WHERE id = ?",
              [.text(verificationID)])
          }
          return .wrongCode
        }
        try db.run("DELETE FROM phone_verifications WHERE id = ?", [.text(verificationID)])
        return .verified(found.phoneNumber)
      }
    }
    switch outcome {
    case .verified(let phoneNumber): return phoneNumber
    case .expired: throw UserStoreError.verificationExpired
    case .wrongCode: throw UserStoreError.invalidVerificationCode
    }
  }

  /// The verifications not yet completed or expired, oldest first.
  /// - Throws: ``UserStoreError/database(message:)``.
  public func pendingPhoneVerifications() throws -> [PhoneVerification] {
    let now = clock.now().timeIntervalSince1970
    return try locked { db in
      try db.query(
        "SELECT id, phone_number, code, expires_at FROM phone_verifications "
          + "WHERE expires_at > ? ORDER BY created_at, rowid", [.real(now)]
      ) { row in
        PhoneVerification(
          verificationID: row.text(0) ?? "", phoneNumber: row.text(1) ?? "",
          code: row.text(2) ?? "", expiresAt: try row.date(3, "phone_verifications.expires_at"))
      }
    }
  }

  // MARK: - Password reset

  /// Records a password-reset request for `email` (stored canonical). Nothing is sent.
  /// - Throws: ``UserBackendKit/UserBackendError`` for an email the canonicaliser refuses;
  ///   ``UserStoreError/database(message:)``.
  public func recordPasswordResetRequest(email: String) throws {
    let email = try IdentifierCanonicalization.email(email)
    let now = clock.now().timeIntervalSince1970
    try locked { db in
      try db.run(
        "INSERT INTO password_reset_requests (email, requested_at) VALUES (?, ?)",
        [.text(email), .real(now)])
    }
  }

  /// Every recorded password-reset request, oldest first.
  /// - Throws: ``UserStoreError/database(message:)``.
  public func passwordResetRequests() throws -> [PasswordResetRequest] {
    try locked { db in
      try db.query(
        "SELECT email, requested_at FROM password_reset_requests ORDER BY sequence"
      ) { row in
        PasswordResetRequest(
          email: row.text(0) ?? "",
          requestedAt: try row.date(1, "password_reset_requests.requested_at"))
      }
    }
  }
}
