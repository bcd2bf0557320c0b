// Scaffold: replaced by the team screens.
export default function Placeholder() {
  return null;
}
