extension MetaImporter: RegisteredImporter {}
