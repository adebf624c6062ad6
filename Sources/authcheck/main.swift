print("authcheck")
