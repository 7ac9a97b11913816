"""`kafka-advisor diff`: two versions of a configuration compared before they are deployed — what
the text changes, what the effective values change though the text does not (a new release's
defaults), and which findings the change introduces or resolves (docs/diff.md)."""
