# gson is a multi-module Maven build; the cases keep the gson module (+ the other modules' pom.xml,
# which the reactor reads) and run its tests only: mvn -pl gson -am
MAVEN_MODULE=gson
