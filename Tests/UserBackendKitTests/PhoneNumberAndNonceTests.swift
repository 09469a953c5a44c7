import Testing
import UserBackendKit

@Suite(.timeLimit(.minutes(2))) struct PhoneNumberTests {
  @Test(arguments: [
    ("090-1234-5678", "81", "+819012345678"),
    ("090 1234 5678", "+81", "+819012345678"),
    ("(415) 555-0132", "1", "+14155550132"),
    ("020 7946 0018", "44", "+442079460018"),
    ("06 1234 5678", "39", "+390612345678"),
    ("+81 90-1234-5678", "81", "+819012345678"),
  ])
  func nationalToE164(national: String, country: String, expected: String) throws {
    #expect(try PhoneNumber.e164(national: national, countryCallingCode: country) == expected)
  }

  @Test(arguments: [
    ("09O-1234-5678", "81", "phoneNumber"),
    ("", "81", "phoneNumber"),
    ("012", "81", "phoneNumber"),
    ("090-1234-5678", "8a", "countryCallingCode"),
    ("090-1234-5678", "", "countryCallingCode"),
    ("090-1234-5678", "0081", "countryCallingCode"),
  ])
  func badNationalNumbersNameTheField(national: String, country: String, field: String) {
    #expect(throws: UserBackendError.self) {
      try PhoneNumber.e164(national: national, countryCallingCode: country)
    }
    do {
      _ = try PhoneNumber.e164(national: national, countryCallingCode: country)
    } catch {
      guard case .invalidInput(let named, _) = error.code else {
        Issue.record("expected invalidInput, got \(error)")
        return
      }
      #expect(named == field)
    }
  }

  // +234 (Nigeria) has no length rule here, so only E.164's 8 to 15 digits apply.
  @Test(arguments: ["+819012345678", "+14155550132", "+23456789", "+234567890123456"])
  func validE164(number: String) throws {
    #expect(try PhoneNumber.validateE164(number) == number)
  }

  @Test(arguments: [
    "", "819012345678", "+81 90 1234 5678", "+81-90-1234-5678", "+1234567",
    "+1234567890123456", "+0123456789", "+８１9012345678", "+",
    // Known countries: the trunk prefix after the country code, or a wrong length.
    "+8109012345678", "+12345678", "+123456789012345", "+4407911123456", "+10125550123",
  ])
  func invalidE164(number: String) {
    do {
      try PhoneNumber.validateE164(number)
      Issue.record("\(number) was accepted")
    } catch {
      guard case .invalidInput(let field, _) = error.code else {
        Issue.record("expected invalidInput, got \(error)")
        return
      }
      #expect(field == "phoneNumber")
    }
  }
}

@Suite(.timeLimit(.minutes(2))) struct NonceTests {
  @Test(arguments: [32, 1, 64])
  func randomNonceHasTheLengthAndAlphabet(length: Int) {
    let nonce = Nonce.random(length: length)
    let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    #expect(nonce.count == length)
    #expect(nonce.allSatisfy { alphabet.contains($0) })
  }

  @Test func randomNoncesDiffer() {
    #expect(Nonce.random() != Nonce.random())
    #expect(Nonce.random().count == 32)
    #expect(Nonce.random(length: 0).isEmpty)
    #expect(Nonce.random(length: -3).isEmpty)
  }

  @Test func sha256HexKnownAnswer() {
    #expect(
      Nonce.sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  }
}
