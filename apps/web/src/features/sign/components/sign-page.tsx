// Scaffold: replaced by the sign-in screen.
export default function Placeholder() {
  return null;
}
