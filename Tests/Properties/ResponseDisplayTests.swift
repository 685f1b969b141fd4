import Testing

@testable import BatonSim

/// How the timeline page shows a response's text.
@Suite("Response display")
struct ResponseDisplayTests {
    @Test("members keep the order sent, escapes are decoded, short containers of scalars take one line")
    func orderAndEscapes() {
        let text = #"{"d\u0061ta":{"b":[1,2.5,null,true],"a":{"z":"\u00e9\"\n","y":{"x":[]}}},"errors":[]}"#
        let shown = ResponseDisplay.text(of: .text(text))
        #expect(shown == """
            {
              "data": {
                "b": [1, 2.5, null, true],
                "a": {
                  "z": "é\\"\\n",
                  "y": {
                    "x": []
                  }
                }
              },
              "errors": []
            }
            """)
    }

    @Test("text that is not JSON is shown as it is, after the reason")
    func notJSON() {
        let shown = ResponseDisplay.text(of: .text("{\"data\": nul"))
        #expect(shown.hasPrefix("not JSON ("))
        #expect(shown.hasSuffix("):\n{\"data\": nul"))
    }

    @Test("a response longer than the page shows is cut, and says how much is left out")
    func cut() {
        let value = String(repeating: "x", count: ResponseDisplay.limit)
        let shown = ResponseDisplay.text(of: .text("{\"data\":{\"s\":\"" + value + "\"}}"))
        let whole = "{\n  \"data\": {\n    \"s\": \"" + value + "\"\n  }\n}"
        let kept = shown.hasPrefix(String(whole.prefix(ResponseDisplay.limit)))
        #expect(kept)
        #expect(shown.count == ResponseDisplay.limit + "\n… (cut: 31 more characters)".count)
        #expect(shown.hasSuffix("\n… (cut: 31 more characters)"))
    }
}
