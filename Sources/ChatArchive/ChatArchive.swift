import ChatModel
