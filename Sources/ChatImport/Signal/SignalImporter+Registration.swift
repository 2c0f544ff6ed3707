extension SignalImporter: RegisteredImporter {}
