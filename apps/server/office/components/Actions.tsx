/** A card's buttons in a row: each with its words, what it does and its look (`ghost`, `ghost danger`); a `false` entry is left out. */
export interface Action {
  label: string;
  onClick: () => void;
  testId: string;
  className?: string;
}

export function Actions({ actions }: { actions: ReadonlyArray<Action | false> }) {
  return (
    <div className="row">
      {actions.map((action) =>
        action ? (
          <button
            key={action.testId}
            type="button"
            className={action.className}
            onClick={action.onClick}
            data-testid={action.testId}
          >
            {action.label}
          </button>
        ) : null,
      )}
    </div>
  );
}
