# jsoup: the cases keep only the test classes they need, plus helper classes that are test classes
# too (ParseTest, UrlConnectTest) and must not run here (UrlConnectTest fetches from the internet).
# So the Surefire selection is the union of the relevant classes of every jsoup case; the classes a
# case does not keep match nothing (-Dsurefire.failIfNoSpecifiedTests=false).
MAVEN_TESTS=DocumentTypeTest,CleanerTest,ConnectTest
