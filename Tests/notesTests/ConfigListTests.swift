import Foundation
import TestSupport
import Testing

/// `notes config list` with long, invalid and unknown values.
@Suite struct ConfigListTests {
    func sandbox(_ json: String) throws -> (Sandbox, String) {
        let s = try Sandbox()
        let path = s.config + "/notes/settings.json"
        try FileManager.default.createDirectory(
            atPath: s.config + "/notes", withIntermediateDirectories: true)
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return (s, path)
    }

    @Test func columnsAlignToTheLongestValueAndInvalidValuesSaySo() throws {
        let (s, _) = try sandbox(
            """
            {"isDarkOn": "yes", "editor": "code --wait", "scheme": "purple", "sort": 3,
             "plugins": {"a": [1, 2]}, "zz": "x"}
            """)
        let r = try s.run(["config"])
        #expect(r.status == 0)
        #expect(
            r.stdout == """
                isDarkOn        false        default (user file value "yes" is invalid)
                scheme          default      default (user file value "purple" is invalid)
                sort            updated      default (user file value 3 is invalid)
                titleFrom       content      default
                editor          code --wait  user
                vault           (unset)      default
                gitAutoCommit   false        default
                dailyFolder     journal      default
                dailyFormat     YYYY-MM-DD   default
                templateFolder  .templates   default
                fileNames       slug         default
                plugins         {"a":[1,2]}  user (not used by notes)
                zz              x            user (not used by notes)

                """)
        let json = try #require(
            try JSONSerialization.jsonObject(
                with: Data(try s.run(["config", "list", "--json"]).stdout.utf8)) as? [String: [String: Any]])
        #expect(json["isDarkOn"]?["value"] as? Bool == false)
        #expect(json["isDarkOn"]?["source"] as? String == "default")
        #expect(json["isDarkOn"]?["invalidFileValue"] as? String == "yes")
        #expect(json["editor"]?["source"] as? String == "user")
        #expect(json["editor"]?["invalidFileValue"] == nil)
    }

    @Test func aVeryLongValueDoesNotPushEveryRow() throws {
        let long = String(repeating: "x", count: 60)
        let (s, _) = try sandbox(#"{"editor": "\#(long)", "sort": "title"}"#)
        #expect(
            try s.run(["config"]).stdout == """
                isDarkOn        false                                     default
                scheme          default                                   default
                sort            title                                     user
                titleFrom       content                                   default
                editor          \(long)  user
                vault           (unset)                                   default
                gitAutoCommit   false                                     default
                dailyFolder     journal                                   default
                dailyFormat     YYYY-MM-DD                                default
                templateFolder  .templates                                default
                fileNames       slug                                      default

                """)
    }

    @Test func warningsAboutValuesComeInTheSameOrderEveryRun() throws {
        let (s, path) = try sandbox(#"{"sort": 3, "isDarkOn": "yes", "scheme": "purple", "vault": 7}"#)
        let expected = [
            "warning: \(path): 'yes' is not a valid value for 'isDarkOn'; valid values: true, false; using the default",
            "warning: \(path): 'purple' is not a valid value for 'scheme'; valid values: default, blue, orange, "
                + "yellow, green, indigo; using the default",
            "warning: \(path): '3' is not a valid value for 'sort'; valid values: updated, created, title; "
                + "using the default",
            "warning: \(path): '7' is not a valid value for 'vault'; using the default",
        ].map { $0 + "\n" }.joined()
        // Dictionary order changes from run to run; five runs in that order by chance are 1 in 24^4.
        for _ in 0..<5 {
            let r = try s.run(["config", "get", "sort"])
            #expect(r.stderr == expected)
        }
    }
}
