@_exported import ChatImport
@_exported import ChatIndex
@_exported import ChatModel
@_exported import ChatSearch
