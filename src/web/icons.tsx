// Icons drawn inline, so they show on a machine without an emoji font and take the text's colour.
// Each sits in a button that carries its label, so the drawing itself is hidden from screen readers.
function Icon({ d }: { d: string }) {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={d} />
    </svg>
  );
}

export const TrashIcon = () => <Icon d="M3 6h18M8 6V4h8v2M6 6l1 14h10l1-14M10 11v6M14 11v6" />;
export const PencilIcon = () => <Icon d="M4 20h4L19 9l-4-4L4 16v4zM14 6l4 4" />;
export const DownloadIcon = () => <Icon d="M12 4v11M7 10l5 5 5-5M5 20h14" />;
export const MenuIcon = () => <Icon d="M4 7h16M4 12h16M4 17h16" />;
export const CloseIcon = () => <Icon d="M6 6l12 12M18 6L6 18" />;
