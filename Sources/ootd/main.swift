import CLI
