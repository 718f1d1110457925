from loa_memory.client import main

main()
