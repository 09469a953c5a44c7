import Foundation

extension UserStore {
  // MARK: - Sign-in facts of refresh tokens

  /// Issues a refresh token (``issueRefreshToken(userID:)``: a sign-in) and records
  /// `signInFacts` with it: what the issuer knows about the sign-in (the emulator keeps
  /// its Firebase `auth_time`, provider and subject here), read back with
  /// ``signInFacts(refreshToken:)``. The store does not read the text; the client never
  /// sees it, so it cannot change it (the token itself stays 32 random bytes).
  ///
  /// The token and its facts are written in two steps: if the second fails, the token is
  /// an error here and never handed out, and a token without facts is refused by the
  /// caller anyway.
  ///
  /// - Returns: the refresh token (43 characters of base64url).
  /// - Throws: ``UserStoreError/userNotFound``, ``UserStoreError/database(message:)``.
  public func issueRefreshToken(userID: String, signInFacts: String) throws -> String {
    let token = try issueRefreshToken(userID: userID)
    try locked { db in
      try db.run(
        "UPDATE refresh_tokens SET sign_in_facts = ? WHERE token_hash = ?",
        [.text(signInFacts), .blob(Self.tokenHash(token))])
    }
    return token
  }

  /// The sign-in facts recorded with a refresh token
  /// (``issueRefreshToken(userID:signInFacts:)``), or `nil` when the store never issued
  /// the token, it was issued without facts (by ``issueRefreshToken(userID:)``, or by a
  /// version before schema 4), or its account was deleted. Revoked tokens keep theirs:
  /// this answers "what sign-in is this", not "may it be redeemed". Changes nothing.
  ///
  /// - Throws: ``UserStoreError/database(message:)``.
  public func signInFacts(refreshToken token: String) throws -> String? {
    try locked { db in
      try db.first(
        "SELECT sign_in_facts FROM refresh_tokens WHERE token_hash = ?",
        [.blob(Self.tokenHash(token))]
      ) { $0.text(0) } ?? nil
    }
  }
}
