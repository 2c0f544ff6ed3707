extension MatrixImporter: RegisteredImporter {}
