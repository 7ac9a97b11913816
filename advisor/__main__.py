from advisor.cli import entrypoint

entrypoint()
