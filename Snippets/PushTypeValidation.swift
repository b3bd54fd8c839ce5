// A push type's rules checked before sending: the topic a widgets push needs.
import Pushbutton

// snippet.hide
func checkWidgetsPush() {
    // snippet.show
    let validator = PayloadValidator()
    let context = PayloadValidator.Context(pushType: .widgets, priority: 10, topic: "com.example.app")
    for diagnostic in validator.validate(.contentChanged(), context: context) { print(diagnostic) }
    // error: a widgets push goes to the topic '<bundle id>.push-type.widgets', not 'com.example.app';
    //        APNs answers 400 DeviceTokenNotForTopic [topic-mismatch]
    //   hint: send it to 'com.example.app.push-type.widgets'
    // snippet.hide
}
