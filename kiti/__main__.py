from kiti.cli.main import main

main()
