from loa_memory.main import main

main()
