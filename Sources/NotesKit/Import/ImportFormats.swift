/// Every format `notes import` reads, in the order help lists them.
public enum ImportFormats {
    public static var all: [any ImportFormat.Type] {
        [
            NoteTakerFormat.self,
            MyNotesAppFormat.self,
            SimplenoteFormat.self,
            JrnlFormat.self,
            KeepFormat.self,
            EnexFormat.self,
        ]
    }

    /// The format whose FORMAT word is `name`.
    public static func named(_ name: String) -> (any ImportFormat.Type)? {
        all.first { $0.name == name }
    }
}
