export default function Index() {
  return <h1>Cohort</h1>;
}
