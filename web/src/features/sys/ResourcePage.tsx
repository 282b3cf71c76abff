export default function ResourcePage() {
  return null;
}
