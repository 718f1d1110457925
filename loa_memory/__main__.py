from loa_memory.cli import main

main()
