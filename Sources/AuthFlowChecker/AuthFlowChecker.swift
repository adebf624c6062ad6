// Placeholder; the checker lands in issue 3.
import AuthFlow
