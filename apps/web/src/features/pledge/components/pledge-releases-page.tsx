// STUB (issue 17 scaffolding): replaced by the screen's real implementation before the merge lands.
export default function Stub() {
  return null;
}
