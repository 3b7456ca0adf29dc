import ArgumentParser

LPCheck.main()
